import { lazy } from 'react';
import { ScheduleOutlined } from '@ant-design/icons';
import { definePluginWeb, planAllows } from 'atende/web';

export default definePluginWeb({
  name: 'schedules',
  translations: async (language) => (await import('./schedules.i18n')).schedulesTranslations[language],
  pages: [
    {
      path: '/schedules',
      component: lazy(() => import('./schedules-page')),
      gate: planAllows('useSchedules'),
      deniedKey: 'session.accessDenied',
      menu: { href: '/schedules', labelKey: 'title', icon: <ScheduleOutlined />, section: 'main', before: '/tags' },
    },
  ],
});
