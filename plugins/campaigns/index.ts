import { definePlugin, Events, isAdmin, type AppRouter, type PluginApp } from 'atende/plugin';
import { campaignsOf } from './campaigns-of.js';
import { campaignsRoutes } from './campaigns/campaigns.routes.js';
import { contactListsRoutes } from './contact-lists/contact-lists.routes.js';
import { CHECK_JOB } from './contact-lists/whatsapp-check.js';
import { OPT_OUTS_ROOM } from './opt-outs/opt-outs.service.js';
import { optOutsRoutes } from './opt-outs/opt-outs.routes.js';
import { campaignSettingsRoutes } from './settings/campaign-settings.routes.js';

/**
 * Campaigns (spec: Contact lists, List contacts, Campaigns, Campaign settings): plan flag
 * useCampaigns, and off as well for a company whose campaignsEnabled setting is off. One folder
 * per area (contact-lists/, campaigns/, opt-outs/, settings/), each with its routes, service,
 * schema and contract.
 */
export default definePlugin({
  name: 'campaigns',
  flag: 'useCampaigns',
  migrations: 'migrations',
  web: 'web',
  routes(router: AppRouter, app: PluginApp) {
    contactListsRoutes(router, app);
    campaignsRoutes(router, app);
    optOutsRoutes(router, app);
    campaignSettingsRoutes(router, app);
  },
  jobs(jobs, app) {
    // One list at a time per process: a 10,000-number list never holds every worker.
    jobs.define<{ companyId: number; contactListId: number }>(CHECK_JOB, async ({ companyId, contactListId }) => campaignsOf(app).check.run(Number(companyId), Number(contactListId)), {
      concurrency: 1,
    });
  },
  events: {
    // Durable: a list that waited for a connection is not forgotten by a crash at that moment.
    [Events.whatsappConnected]: { durable: true, handle: async (event, app) => campaignsOf(app).check.resumeWaiting(event.companyId!) },
    // Durable: an opt-out is a customer's wish; only messages that are one opt-out word become jobs.
    [Events.messageCreated]: {
      durable: true,
      when: async (event, app) => campaignsOf(app).optOuts.isOptOutWord(event),
      handle: async (event, app) => campaignsOf(app).optOuts.handleInbound(event),
    },
  },
  joins: {
    // The opt-out list's live frames are for admins, as the list is.
    joinCampaignOptOuts: (user) => (isAdmin(user) ? OPT_OUTS_ROOM : null),
  },
  register(app) {
    campaignsOf(app);
  },
});
