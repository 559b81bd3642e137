import type { PluginApp } from 'atende/plugin';
import { CampaignsGate } from './campaigns-gate.js';
import { CampaignsService } from './campaigns/campaigns.service.js';
import { ContactListsService } from './contact-lists/contact-lists.service.js';
import { WhatsappCheck } from './contact-lists/whatsapp-check.js';
import { OptOutsService } from './opt-outs/opt-outs.service.js';
import { CampaignSettingsService } from './settings/campaign-settings.service.js';
import { Dispatcher } from './dispatch/dispatcher.js';
import { DispatchService } from './dispatch/dispatch.service.js';
import type { CampaignsConfig } from './campaigns-config.js';

export interface CampaignsParts {
  gate: CampaignsGate;
  check: WhatsappCheck;
  contactLists: ContactListsService;
  settings: CampaignSettingsService;
  campaigns: CampaignsService;
  optOuts: OptOutsService;
  dispatcher: Dispatcher;
  dispatch: DispatchService;
}

/** Keyed by the plugin's app: one server builds them once; a test process may run several servers. */
const built = new WeakMap<PluginApp, CampaignsParts>();

/** The plugin's services, built once for its app. Each area (contact lists, settings, next campaigns) adds its own here. */
export function campaignsOf(app: PluginApp): CampaignsParts {
  let parts = built.get(app);
  if (!parts) {
    const gate = new CampaignsGate(app);
    const check = new WhatsappCheck(app, gate);
    const settings = new CampaignSettingsService(app);
    const dispatcher = new Dispatcher(app, gate, settings, (app.config as CampaignsConfig).waitScale);
    parts = {
      gate,
      check,
      contactLists: new ContactListsService(app, check),
      settings,
      campaigns: new CampaignsService(app),
      optOuts: new OptOutsService(app, settings),
      dispatcher,
      dispatch: new DispatchService(app, dispatcher, settings),
    };
    built.set(app, parts);
  }
  return parts;
}
