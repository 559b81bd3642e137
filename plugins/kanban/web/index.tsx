import { lazy } from 'react';
import { ProjectOutlined } from '@ant-design/icons';
import { definePluginWeb, planAllows } from 'atende/web';

export default definePluginWeb({
  name: 'kanban',
  translations: async (language) => (await import('./kanban.i18n')).kanbanTranslations[language],
  pages: [
    {
      path: '/kanban',
      component: lazy(() => import('./kanban-page')),
      gate: planAllows('useKanban'),
      deniedKey: 'session.accessDenied',
      menu: { href: '/kanban', labelKey: 'title', icon: <ProjectOutlined />, section: 'main', before: '/contacts' },
    },
  ],
});
