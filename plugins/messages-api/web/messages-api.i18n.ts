import type { Translations } from 'atende/web';

/** The connection dialog's messages API token. */
export const messagesApiTranslations: Translations = {
  'pt-BR': {
    token: {
      label: 'Token da API de mensagens',
      none: 'Esta conexão ainda não tem token.',
      active: 'Token ativo desde {{created}}; último uso: {{used}}.',
      never: 'nunca',
      generate: 'Gerar token',
      regenerate: 'Trocar o token',
      regenerateConfirm: 'O token atual deixa de funcionar na hora.',
      revoke: 'Revogar',
      revokeConfirm: 'Sistemas que usam este token deixam de enviar mensagens.',
      revoked: 'Token revogado',
      showOnce: 'Copie o token agora: ele não será mostrado de novo.',
      copy: 'Copiar token',
      copied: 'Token copiado',
    },
  },
  en: {
    token: {
      label: 'Messages API token',
      none: 'This connection has no token yet.',
      active: 'Token active since {{created}}; last used: {{used}}.',
      never: 'never',
      generate: 'Generate token',
      regenerate: 'Replace the token',
      regenerateConfirm: 'The current token stops working at once.',
      revoke: 'Revoke',
      revokeConfirm: 'Systems using this token will no longer send messages.',
      revoked: 'Token revoked',
      showOnce: 'Copy the token now: it will not be shown again.',
      copy: 'Copy token',
      copied: 'Token copied',
    },
  },
  es: {
    token: {
      label: 'Token de la API de mensajes',
      none: 'Esta conexión todavía no tiene token.',
      active: 'Token activo desde {{created}}; último uso: {{used}}.',
      never: 'nunca',
      generate: 'Generar token',
      regenerate: 'Cambiar el token',
      regenerateConfirm: 'El token actual deja de funcionar al instante.',
      revoke: 'Revocar',
      revokeConfirm: 'Los sistemas que usan este token dejarán de enviar mensajes.',
      revoked: 'Token revocado',
      showOnce: 'Copie el token ahora: no se volverá a mostrar.',
      copy: 'Copiar token',
      copied: 'Token copiado',
    },
  },
};
