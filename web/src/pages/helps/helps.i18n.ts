import type { Translations } from '../../i18n';

export const helpsTranslations: Translations = {
  'pt-BR': {
    title: 'Ajuda',
    count: '({{count}})',
    empty: 'Nenhum vídeo de ajuda disponível',
    watch: 'Assistir: {{title}}',
    openLink: 'Abrir link',
  },
  en: {
    title: 'Help',
    count: '({{count}})',
    empty: 'No help videos available',
    watch: 'Watch: {{title}}',
    openLink: 'Open link',
  },
  es: {
    title: 'Ayuda',
    count: '({{count}})',
    empty: 'No hay videos de ayuda disponibles',
    watch: 'Ver: {{title}}',
    openLink: 'Abrir enlace',
  },
};
