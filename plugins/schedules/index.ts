import { definePlugin, Events } from 'atende/plugin';
import { SCHEDULES_SEND_JOB, SCHEDULES_SWEEP_JOB, SWEEP_EVERY_MS } from './schedule-sender.js';
import { schedulesOf } from './schedules-of.js';
import { schedulesRoutes } from './schedules.routes.js';

/** Scheduled messages (spec: Schedules page, Schedule entity): plan flag useSchedules. */
export default definePlugin({
  name: 'schedules',
  flag: 'useSchedules',
  migrations: 'migrations',
  web: 'web',
  routes: schedulesRoutes,
  jobs(jobs, app) {
    const { sender } = schedulesOf(app);
    jobs.define<{ companyId: number; scheduleId: number }>(SCHEDULES_SEND_JOB, async ({ companyId, scheduleId }) => {
      await sender.send(Number(companyId), Number(scheduleId));
    });
    jobs.define(SCHEDULES_SWEEP_JOB, async () => {
      await sender.sweep();
    });
  },
  async bootstrap(app) {
    // One row whatever the process count. Send jobs are stored, so those that came due while the
    // server was stopped run as it starts; the sweep is for a job that was never written.
    await app.jobs.every(SWEEP_EVERY_MS, SCHEDULES_SWEEP_JOB);
  },
  // Durable: a crash between the send and these hooks must not leave a schedule AGENDADA (the
  // sweep also settles one whose message is already sent or failed).
  events: {
    [Events.messageSent]: {
      durable: true,
      handle: async (event, app) => schedulesOf(app).sender.delivered(event.companyId!, event.payload.messageId),
    },
    [Events.messageSendFailed]: {
      durable: true,
      handle: async (event, app) => schedulesOf(app).sender.failed(event.companyId!, event.payload.messageId, event.payload.error),
    },
  },
});
