import type { Translations } from '../../i18n';

/** The top bar's bell and the browser notifications of new messages (loaded with the shell, so kept small). */
export const notificationsTranslations: Translations = {
  'pt-BR': {
    bell: 'Notificações',
    title: 'Mensagens não lidas',
    empty: 'Nenhuma notificação.',
    newMessage: 'Mensagem de {{name}}',
    media: 'Arquivo',
    unread: '{{count}} mensagens não lidas',
  },
  en: {
    bell: 'Notifications',
    title: 'Unread messages',
    empty: 'No notifications.',
    newMessage: 'Message from {{name}}',
    media: 'File',
    unread: '{{count}} unread messages',
  },
  es: {
    bell: 'Notificaciones',
    title: 'Mensajes no leídos',
    empty: 'Ninguna notificación.',
    newMessage: 'Mensaje de {{name}}',
    media: 'Archivo',
    unread: '{{count}} mensajes no leídos',
  },
};
