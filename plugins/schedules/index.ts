import { definePlugin } from '../../core/plugins/define-plugin.js';

/** Scheduled messages (spec: Schedules page, Schedule entity): plan flag useSchedules. */
export default definePlugin({
  name: 'schedules',
  flag: 'useSchedules',
  migrations: 'migrations',
  web: 'web',
});
