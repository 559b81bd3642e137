import { lazy } from 'react';
import { ScheduleOutlined } from '@ant-design/icons';
import { planAllows, type PluginWeb } from 'atende/web';

export const pages: PluginWeb['pages'] = [
  {
    path: '/schedules',
    component: lazy(() => import('./schedules-page')),
    gate: planAllows('useSchedules'),
    deniedKey: 'session.accessDenied',
    menu: { href: '/schedules', labelKey: 'menu.schedules', icon: <ScheduleOutlined />, section: 'main', before: '/tags' },
  },
];
