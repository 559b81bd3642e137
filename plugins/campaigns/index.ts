import { definePlugin, Events, isAdmin, type AppRouter, type EventOf, type PluginApp } from 'atende/plugin';
import { campaignsConfig } from './campaigns-config.js';
import { campaignsOf } from './campaigns-of.js';
import { campaignsRoutes } from './campaigns/campaigns.routes.js';
import { contactListsRoutes } from './contact-lists/contact-lists.routes.js';
import { CHECK_JOB } from './contact-lists/whatsapp-check.js';
import { dispatchRoutes } from './dispatch/dispatch.routes.js';
import { CONFIRMED_JOB, TICK_JOB } from './dispatch/dispatcher.js';
import { OPT_OUTS_ROOM } from './opt-outs/opt-outs.service.js';
import { optOutsRoutes } from './opt-outs/opt-outs.routes.js';
import { campaignSettingsRoutes } from './settings/campaign-settings.routes.js';

/**
 * Campaigns (spec: Contact lists, List contacts, Campaigns, Campaign report, Campaign settings):
 * plan flag useCampaigns, and off as well for a company whose campaignsEnabled setting is off.
 * One folder per area (contact-lists/, campaigns/, dispatch/, opt-outs/, settings/), each with its routes, service,
 * schema and contract.
 */
export default definePlugin({
  name: 'campaigns',
  flag: 'useCampaigns',
  config: campaignsConfig,
  migrations: 'migrations',
  web: 'web',
  routes(router: AppRouter, app: PluginApp) {
    contactListsRoutes(router, app);
    campaignsRoutes(router, app);
    optOutsRoutes(router, app);
    campaignSettingsRoutes(router, app);
    dispatchRoutes(router, app);
  },
  jobs(jobs, app) {
    // One list at a time per process: a 10,000-number list never holds every worker.
    jobs.define<{ companyId: number; contactListId: number }>(CHECK_JOB, async ({ companyId, contactListId }) => campaignsOf(app).check.run(Number(companyId), Number(contactListId)), {
      concurrency: 1,
    });
    jobs.define(TICK_JOB, async () => campaignsOf(app).dispatcher.tick());
    jobs.define<{ companyId: number; shippingId: number }>(CONFIRMED_JOB, async ({ shippingId }) => campaignsOf(app).dispatcher.sendConfirmed(Number(shippingId)));
  },
  events: {
    // Durable: a list that waited for a connection is not forgotten by a crash at that moment.
    [Events.whatsappConnected]: {
      durable: true,
      handle: async (event, app) => {
        const { check, dispatcher } = campaignsOf(app);
        await dispatcher.connected(event.payload.connectionId);
        await check.resumeWaiting(event.companyId!);
      },
    },
    // Not durable: the tick finds what a lost one would have done (a loop to start, a pause to show).
    [Events.whatsappDisconnected]: async (event, app) => campaignsOf(app).dispatcher.disconnected(event.payload.connectionId),
    [Events.whatsappLimited]: async (event, app) => {
      const { connectionId, active, until } = event.payload;
      await campaignsOf(app).dispatcher.limited(connectionId, active, until);
    },
    [Events.whatsappAck]: async (event, app) => campaignsOf(app).dispatcher.acked(event.payload.companyId, event.payload.messageId, event.payload.status),
    // Durable: an opt-out is a customer's wish, and a reply that confirms a contact must send its
    // message even when the server stops right after it. Only messages that are one opt-out word,
    // or that come from a number awaiting a confirmation, become jobs.
    [Events.messageCreated]: {
      durable: true,
      when: async (event, app) => {
        const { optOuts, dispatcher } = campaignsOf(app);
        if (await optOuts.isOptOutWord(event)) return true;
        const reply = replyOf(event);
        return reply !== null && (await dispatcher.awaitsReply(event.companyId!, reply.whatsappId, reply.number));
      },
      handle: async (event, app) => {
        const { optOuts, dispatcher } = campaignsOf(app);
        if (await optOuts.isOptOutWord(event)) {
          const number = await optOuts.handleInbound(event);
          if (number !== null) await dispatcher.optedOut(event.companyId!, number);
          return;
        }
        const reply = replyOf(event);
        if (reply) await dispatcher.replied(event.companyId!, reply.whatsappId, reply.number, reply.body);
      },
    },
  },
  joins: {
    // The opt-out list's live frames are for admins, as the list is.
    joinCampaignOptOuts: (user) => (isAdmin(user) ? OPT_OUTS_ROOM : null),
  },
  register(app) {
    campaignsOf(app);
  },
  async bootstrap(app) {
    await app.jobs.every(app.config.tickEveryMs, TICK_JOB);
  },
  async destroy(app) {
    await campaignsOf(app).dispatcher.stop();
  },
});

/** A customer's message on a connection that may answer a confirmation request: who wrote, where, what. */
function replyOf(event: EventOf<typeof Events.messageCreated>): { whatsappId: number; number: string; body: string } | null {
  const { message, ticket } = event.payload;
  const number = ticket.contact?.number;
  if (event.companyId === null || message.fromMe || !number || !ticket.whatsappId || ticket.isGroup) return null;
  return { whatsappId: ticket.whatsappId, number, body: message.body };
}
