import { lazy } from 'react';
import { ScheduleOutlined } from '@ant-design/icons';
import { planAllows } from '../../../web/src/pages/gates';
import type { PluginWeb } from '../../../web/src/pages/registry';

export const pages: PluginWeb['pages'] = [
  {
    path: '/schedules',
    component: lazy(() => import('./schedules-page')),
    gate: planAllows('useSchedules'),
    deniedKey: 'session.accessDenied',
    menu: { href: '/schedules', labelKey: 'menu.schedules', icon: <ScheduleOutlined />, section: 'main', before: '/tags' },
  },
];
