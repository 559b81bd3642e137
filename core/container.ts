import type { Config } from './config/config.schema.js';
import type { Infrastructure } from './infrastructure.js';
import type { Logger } from './logger.js';
import { createDatabase } from './db/database.js';
import { EventBus } from './events/event-bus.js';
import { RealtimeHub } from './realtime/hub.js';
import { localCluster, type Cluster } from './cluster/cluster.js';
import { SessionLeases } from './cluster/session-leases.js';
import { signalCacheChanges } from './cluster/cache-signals.js';
import { PRESENCE_SWEEP_JOB } from './cluster/presence.js';
import { TokenService } from './auth/tokens.js';
import { PlansService } from './modules/plans/plans.service.js';
import { CompaniesService } from './modules/companies/companies.service.js';
import { SettingsService } from './modules/settings/settings.service.js';
import { UsersService } from './modules/users/users.service.js';
import { AuthService } from './modules/auth/auth.service.js';
import { MailService } from './mail/mail.service.js';
import { PasswordResetService } from './modules/password-reset/password-reset.service.js';
import { createJobEngine } from './jobs/job-backend.js';
import { defineCoreJoinPolicies } from './realtime/join-policies.js';
import { defineTicketJoinPolicies } from './modules/tickets/tickets.realtime.js';
import { createMediaStorage } from './storage/create-media-storage.js';
import { createSimulator, type Simulator } from './channels/simulator/simulator.js';
import { createProviders, simulatorEnabled, type ProviderRegistry } from './channels/providers.js';
import { SessionManager } from './channels/session-manager.js';
import { WhatsappService } from './modules/whatsapp/whatsapp.service.js';
import { WhatsappConnections } from './modules/whatsapp/whatsapp-connections.js';
import { DirectMessages } from './modules/whatsapp/direct-messages.js';
import { TicketEvents, userTicketRooms } from './modules/tickets/ticket-events.js';
import { TicketsService } from './modules/tickets/tickets.service.js';
import { TicketAutomations } from './modules/tickets/ticket-automations.js';
import { OutboundService } from './modules/messages/outbound.service.js';
import { MessagesService } from './modules/messages/messages.service.js';
import { InboundPipeline } from './modules/pipeline/inbound-pipeline.js';
import { InboundJournal } from './modules/pipeline/inbound-journal.js';
import { QueuesService } from './modules/queues/queues.service.js';
import { QueueOptionsService } from './modules/queue-options/queue-options.service.js';
import { ContactsService } from './modules/contacts/contacts.service.js';
import { TagsService } from './modules/tags/tags.service.js';
import { QuickMessagesService } from './modules/quick-messages/quick-messages.service.js';
import { HelpsService } from './modules/helps/helps.service.js';
import { TicketNotesService } from './modules/tickets/ticket-notes.service.js';
import { DashboardService } from './modules/dashboard/dashboard.service.js';
import { Events } from './events/event-bus.js';

/** Every service, built once below; routes (and plugins) read them by these names, never build their own. */
export interface Services {
  plans: PlansService;
  settings: SettingsService;
  companies: CompaniesService;
  users: UsersService;
  auth: AuthService;
  mail: MailService;
  passwordResets: PasswordResetService;
  whatsapps: WhatsappService;
  /** Sends outside tickets (campaigns): the SDK's app.services.whatsapp. */
  whatsapp: DirectMessages;
  queues: QueuesService;
  queueOptions: QueueOptionsService;
  contacts: ContactsService;
  tags: TagsService;
  quickMessages: QuickMessagesService;
  helps: HelpsService;
  ticketEvents: TicketEvents;
  outbound: OutboundService;
  messages: MessagesService;
  tickets: TicketsService;
  ticketAutomations: TicketAutomations;
  pipeline: InboundPipeline;
  ticketNotes: TicketNotesService;
  dashboard: DashboardService;
}

export interface Container extends Infrastructure {
  tokens: TokenService;
  services: Services;
  providers: ProviderRegistry;
  sessions: SessionManager;
  /** Which WhatsApp sessions this node owns. */
  leases: SessionLeases;
  /** Present only when the simulated WhatsApp provider is enabled (demo or ATENDE_SIMULATOR=1). */
  simulator?: Simulator;
}

/** Builds every long-lived object once, in dependency order, and wires them explicitly. */
export function createContainer(config: Config, log: Logger, cluster: Cluster = localCluster(config, log)): Container {
  const db = createDatabase(config.database, log.child({ part: 'db' }));
  const bus = new EventBus(log.child({ part: 'events' }));
  const tokens = new TokenService(config, { access: config.accessTokenTtl, refresh: config.refreshTokenTtl });
  // The hub authenticates sockets through the auth service, created just below.
  const services = {} as Services;
  const realtime = new RealtimeHub(
    cluster.pubsub,
    (token) => services.auth.authenticate(token),
    log.child({ part: 'realtime' }),
  );
  const jobs = createJobEngine(config, db, log.child({ part: 'jobs' }));
  const media = createMediaStorage(config, log.child({ part: 'media' }));
  const infra: Infrastructure = { config, log, db, bus, realtime, jobs, media, cluster };
  signalCacheChanges(bus, cluster.signals);
  // The channel layer reaches connections and the journal through ports implemented by the modules.
  const connections = new WhatsappConnections(db);
  const simulator = simulatorEnabled(config) ? createSimulator(config, connections) : undefined;
  const providers = createProviders({ db, log: log.child({ part: 'channels' }), simulator });
  const journal = new InboundJournal(db, log.child({ part: 'journal' }));
  const leases = new SessionLeases(db, cluster.nodeId, !cluster.shared, cluster.signals, log.child({ part: 'leases' }));
  const sessions = new SessionManager(infra, providers, journal, connections, leases);

  services.plans = new PlansService(infra);
  services.settings = new SettingsService(infra);
  services.users = new UsersService(infra, services.plans);
  services.companies = new CompaniesService(infra, services.plans, services.settings, services.users);
  services.auth = new AuthService(infra, tokens, services.users);
  services.mail = new MailService(config, log.child({ part: 'mail' }));
  services.passwordResets = new PasswordResetService(infra, services.users, services.mail);
  services.whatsapps = new WhatsappService(infra, services.plans, sessions, providers);
  services.whatsapp = new DirectMessages(infra, sessions);
  services.queues = new QueuesService(infra, services.plans);
  services.queueOptions = new QueueOptionsService(infra);
  services.contacts = new ContactsService(infra, { sessions, settings: services.settings });
  services.tags = new TagsService(infra);
  services.quickMessages = new QuickMessagesService(infra);
  services.helps = new HelpsService(infra);

  services.ticketEvents = new TicketEvents(realtime, bus);
  const events = services.ticketEvents;
  services.outbound = new OutboundService(infra, { sessions, events });
  services.messages = new MessagesService(infra, { sessions, events, outbound: services.outbound });
  services.tickets = new TicketsService(infra, { settings: services.settings, events, outbound: services.outbound, messages: services.messages });
  services.ticketAutomations = new TicketAutomations(infra, { settings: services.settings, events, outbound: services.outbound });
  services.ticketNotes = new TicketNotesService(infra);
  services.dashboard = new DashboardService(infra, { settings: services.settings });
  services.pipeline = new InboundPipeline(infra, {
    settings: services.settings,
    outbound: services.outbound,
    tickets: services.tickets,
    events,
    sessions,
    journal,
    direct: services.whatsapp,
  });
  services.pipeline.start();

  // A socket hears the tickets of its user's queues: rooms follow the user's queues and allTicket.
  realtime.provideRooms(userTicketRooms(db));
  bus.on(Events.userUpdated, (event) => realtime.refreshUser((event.payload as { user: { id: number } }).user.id));
  // Billing's block stops a company's sessions; payment (or a due date moved by hand) starts them.
  for (const name of [Events.companyBlocked, Events.companyUnblocked]) {
    bus.on(name, (event) => sessions.companyChanged(event.companyId!), 'sessions');
  }

  defineCoreJoinPolicies(realtime);
  defineTicketJoinPolicies(realtime, db);
  realtime.onUserStatus((user, online) => {
    cluster.presence
      .report(user.id, online)
      .then((changed) => (changed ? services.users.setOnline(user.id, online) : undefined))
      .catch((err: unknown) => log.error({ err }, 'online status not saved'));
  });
  jobs.define(PRESENCE_SWEEP_JOB, () => services.users.sweepOnline((ids) => cluster.presence.absent(ids)));

  return { ...infra, tokens, services, providers, sessions, leases, simulator };
}
