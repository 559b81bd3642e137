import type { z } from 'zod';
import type { AuthUser } from '../auth/auth-user.js';
import type { Services } from '../container.js';
import type { Database } from '../db/database.js';
import type { EventHandler, EventName, EventOf, KnownEventName } from '../events/event-bus.js';
import type { AppRouter } from '../http/context.js';
import type { JobScheduler } from '../jobs/job-engine.js';
import type { Logger } from '../logger.js';
import type { Turn } from '../modules/pipeline/steps/conversation-steps.js';
import { FEATURE_KEY, type PlanLabel, type PlanLimitDeclaration } from '../modules/plans/plan-catalogue.js';
import type { MediaStorage } from '../storage/media-storage.js';
import type { AttemptStore } from '../cluster/attempt-store.js';
import type { ClusterSignals } from '../cluster/signals.js';
import type { SecretBox } from '../auth/sealed-secrets.js';
import type { BearerResolver } from '../auth/bearer-tokens.js';
import type { RouteDoc } from '../http/api-docs.js';

/**
 * The core services a plugin may call: the stable facade of the SDK. A service joins it here, in
 * this one line, once its interface is meant to last.
 */
export const PLUGIN_SERVICES = ['contacts', 'tickets', 'messages', 'outbound', 'whatsapp', 'tags', 'queues', 'settings', 'plans', 'users', 'companies', 'whatsapps', 'mail'] as const satisfies (keyof Services)[];

export type PluginServices = Pick<Services, (typeof PLUGIN_SERVICES)[number]> & { media: MediaStorage };

/** The event bus as a plugin sees it: its handlers are labelled with the plugin's name in the logs. */
export interface PluginEvents {
  emit<T>(name: EventName, companyId: number | null, payload: T): Promise<void>;
  on(name: EventName, handler: EventHandler): () => void;
}

/**
 * The realtime hub as a plugin sees it. A `room` is the plugin's own: `publish(…, 'board:3')`
 * reaches the sockets that joined `<plugin>:board:3` through one of the plugin's join rules;
 * without a room the frame goes to every socket of the company. A `null` company is every
 * company: platform-wide content (super users' announcements), best narrowed by a room.
 */
export interface PluginRealtime {
  publish(companyId: number | null, channel: string, data: unknown, room?: string | string[]): void;
  /**
   * Sends to the sockets of these users of the company only (every socket is in its user's room
   * from the start, no join needed): for frames that only some people may see. No users, no frame.
   */
  publishToUsers(companyId: number, channel: string, data: unknown, userIds: readonly number[]): void;
}

/** What every hook receives: the plugin's narrow view of the server, never the whole container. */
export interface PluginApp<C = unknown> {
  /** The plugin's name. */
  name: string;
  /** Logger whose lines carry the plugin's name. */
  log: Logger;
  db: Database;
  /** The job engine; handlers re-check the plugin's flag for the job's company when they run. */
  jobs: JobScheduler;
  realtime: PluginRealtime;
  events: PluginEvents;
  /** The plugin's own config, parsed by its `config` schema at start-up. */
  config: C;
  services: PluginServices;
  /**
   * Outgoing calls to addresses a tenant chose: `checkUrl(url)` is the product's one check before
   * such a call (http or https; a private, loopback or link-local address refused with 400
   * ERR_URL_NOT_ALLOWED unless the server's config has allowPrivateUrls).
   */
  outgoing: { checkUrl(url: string): Promise<URL>; allowPrivateUrls: boolean };
  /**
   * Another kind of bearer token on the app's own REST routes: `registerBearer('atk_', resolve)`
   * (in `register`) makes a request carrying `Authorization: Bearer atk_…` act as the user and
   * company `resolve` answers, with the admin profile, on the routes its scopes allow (see
   * core/auth/api-scopes.ts); null from `resolve` answers 401. A prefix is one plugin's.
   */
  auth: { registerBearer(prefix: string, resolve: BearerResolver): void };
  /** Secrets stored sealed (AES-256-GCM) with the plugin's own key, derived from the server's config secret. */
  secrets: SecretBox;
  /** Attempt counters every node of the installation shares (the store of an `AttemptLimiter`). */
  attempts: AttemptStore;
  /** Notices every node acts on at once, e.g. to drop a cached value another node changed (see ClusterSignals). */
  signals: ClusterSignals;
  /**
   * What another installed plugin `provides` (built once, on first use), or undefined when it is
   * not installed or provides nothing. Its type is the caller's to declare: plugins import nothing
   * of each other.
   */
  plugin<T extends object = Record<string, unknown>>(name: string): T | undefined;
}

export type PluginEventHandler<N extends KnownEventName = KnownEventName, C = unknown> = (event: EventOf<N>, app: PluginApp<C>) => Promise<void>;

/**
 * An event hook: a handler, run after the emitter's commit in the plugin's own queue, or
 * `{ durable: true, handle }`, delivered through a job written as the event is emitted and retried
 * when the handler throws, so that neither a crash nor a failing handler loses the event.
 */
export type PluginEventHook<N extends KnownEventName = KnownEventName, C = unknown> =
  | PluginEventHandler<N, C>
  | {
      durable?: boolean;
      /**
       * Durable hooks only: the events worth a job. It runs in the emitter's path, before the job
       * is written, so it must be cheap (the message's own fields, a cached setting); without it
       * every event of the name is written as a job.
       */
      when?: (event: EventOf<N>, app: PluginApp<C>) => boolean | Promise<boolean>;
      handle: PluginEventHandler<N, C>;
    };

/** A conversation step: true claims the turn (later steps and the chatbot do not run), false passes. */
export type PluginStep<C = unknown> = (turn: Turn, app: PluginApp<C>) => Promise<boolean>;

/**
 * A realtime join rule: answers the room (inside the plugin's namespace, without the prefix) a
 * user may join for a client frame, or null to refuse. The host checks the plugin's flag first.
 */
export type PluginJoinRule<C = unknown> = (user: AuthUser, data: unknown, app: PluginApp<C>) => Promise<string | null> | string | null;

/** A plugin's config schema: a zod object, so each key can also come from its own variable. */
export type PluginConfigSchema = z.ZodObject;

export interface PluginDefinition<S extends PluginConfigSchema = PluginConfigSchema, C = z.infer<S>> {
  /** Unique among installed plugins; lowercase, digits and dashes. */
  name: string;
  /**
   * Plan flag that enables the plugin per company; omitted = always on. Gates behaviour, never
   * schema. One of the spec's seven (useKanban, …) or the plugin's own (camelCase, e.g. useEcho).
   */
  flag?: string;
  /** The flag's label on the super user's Plans tab; the spec's flags have theirs already. */
  flagLabel?: PlanLabel;
  /**
   * Numbers a plan sets per company (e.g. `echoesPerMonth: { label: { 'pt-BR': 'Ecos por mês' },
   * default: 100 }`); read with `plans.limit(companyId, key)`, enforced with `plans.assertBelowLimit`.
   */
  limits?: Record<string, PlanLimitDeclaration>;
  /**
   * The plugin's settings: `pluginConfig.<name>` of atende.config.json, each key overridden by
   * ATENDE_PLUGIN_<NAME>_<KEY>; validated at start-up, a bad value stops it. Parsed into `app.config`.
   */
  config?: S;
  /**
   * Other environment variables a config key also reads (`{ provider: 'ATENDE_BILLING_PROVIDER' }`),
   * names of the `ATENDE_` family that an installer already knows. ATENDE_PLUGIN_<NAME>_<KEY> wins
   * over them; they win over atende.config.json.
   */
  configEnv?: Record<string, string>;
  /**
   * Whether this installation turned the plugin on (e.g. billing without a provider is off); omitted
   * = on. The web app hides the pages of an inactive plugin (`pluginActive` gate, GET /api/plugins/active).
   */
  active?(config: C): boolean;
  /** Migrations folder, relative to the plugin's entry module; run after the core's, whatever the flag. */
  migrations?: string;
  /** Authenticated routes under /api; the host answers 403 ERR_PLAN_FEATURE_DISABLED when the flag is off. */
  routes?(router: AppRouter, app: PluginApp<C>): void;
  /** Routes under /api with no authentication nor flag check (webhooks); they check what they need. */
  publicRoutes?(router: AppRouter, app: PluginApp<C>): void;
  /**
   * Descriptions of the plugin's routes that API clients may call (those an API token's scopes
   * reach, and public ones meant for other systems), with the zod schemas the routes validate
   * with: they join the OpenAPI document at GET /api/openapi.json.
   */
  apiDocs?: RouteDoc[];
  /** Keep the request body's bytes in `ctx.state.rawBody` on the public routes (webhook signatures). */
  rawBody?: boolean;
  /** Job definitions; a job whose data has a companyId is skipped when the flag is off for it at run time. */
  jobs?(jobs: JobScheduler, app: PluginApp<C>): void | Promise<void>;
  /** Domain event hooks, called for companies with the flag (and for events of no company). */
  events?: { [N in KnownEventName]?: PluginEventHook<N, C> };
  /** Conversation steps, in declaration order, before the core chatbot; for companies with the flag. */
  steps?: Record<string, PluginStep<C>>;
  /** Realtime join rules by client frame type (`joinBoard`); refused at start if the type is taken. */
  joins?: Record<string, PluginJoinRule<C>>;
  /**
   * What other plugins may call, reached with `app.plugin(name)` (e.g. the files plugin's sender,
   * which campaigns use); built once, with this plugin's app, when first asked for.
   */
  provides?(app: PluginApp<C>): object;
  /** Web pages and menu entries, built into the SPA (folder relative to the entry module). */
  web?: string;
  /** Runs at start-up before the database is touched. */
  register?(app: PluginApp<C>): void | Promise<void>;
  /** Runs once the server listens, before jobs start. */
  bootstrap?(app: PluginApp<C>): void | Promise<void>;
  /** Runs on shutdown, plugins in reverse order of loading; an error is logged, never thrown. */
  destroy?(app: PluginApp<C>): void | Promise<void>;
}

const PLUGIN_NAME = /^[a-z][a-z0-9-]*$/;
/** A join frame type; its leave<Something> twin leaves the same room. */
const JOIN_FRAME = /^join[A-Z][A-Za-z0-9]*$/;

function isFunction(value: unknown): boolean {
  return typeof value === 'function';
}

function mapsTo(value: unknown, valid: (entry: unknown) => boolean): boolean {
  return typeof value === 'object' && value !== null && Object.values(value).every(valid);
}

function isEventHook(hook: unknown): boolean {
  return typeof hook === 'function' || (typeof hook === 'object' && hook !== null && typeof (hook as { handle?: unknown }).handle === 'function');
}

/** Problems with a plugin object, as sentences; empty when it is well formed. */
export function pluginProblems(value: unknown): string[] {
  if (typeof value !== 'object' || value === null) return ['its default export is not a plugin object (use definePlugin)'];
  const plugin = value as Record<string, unknown>;
  const problems: string[] = [];
  if (typeof plugin.name !== 'string' || !PLUGIN_NAME.test(plugin.name)) {
    problems.push('name must be lowercase letters, digits and dashes, starting with a letter');
  }
  if (plugin.flag !== undefined && !isFeatureKey(plugin.flag)) problems.push('flag must be a camelCase name (useEcho)');
  if (plugin.flagLabel !== undefined && !isLabel(plugin.flagLabel)) problems.push("flagLabel must give at least { 'pt-BR': text }");
  if (plugin.limits !== undefined) problems.push(...limitProblems(plugin.limits));
  for (const key of ['migrations', 'web'] as const) {
    if (plugin[key] !== undefined && typeof plugin[key] !== 'string') problems.push(`${key} must be a folder name`);
  }
  for (const key of ['routes', 'publicRoutes', 'jobs', 'provides', 'register', 'bootstrap', 'destroy'] as const) {
    if (plugin[key] !== undefined && typeof plugin[key] !== 'function') problems.push(`${key} must be a function`);
  }
  if (plugin.apiDocs !== undefined && !Array.isArray(plugin.apiDocs)) problems.push('apiDocs must be a list of route descriptions');
  if (plugin.rawBody !== undefined && typeof plugin.rawBody !== 'boolean') problems.push('rawBody must be true or false');
  if (plugin.configEnv !== undefined && !mapsTo(plugin.configEnv, (name) => typeof name === 'string' && /^ATENDE_[A-Z0-9_]+$/.test(name))) {
    problems.push('configEnv must map config keys to ATENDE_ variable names');
  }
  if (plugin.events !== undefined && !mapsTo(plugin.events, isEventHook)) {
    problems.push('events must map event names to functions or { durable, handle } objects');
  }
  if (plugin.steps !== undefined && !mapsTo(plugin.steps, isFunction)) problems.push('steps must map step names to functions');
  if (plugin.joins !== undefined) {
    const joins = plugin.joins;
    if (!mapsTo(joins, isFunction) || Object.keys(joins as object).some((type) => !JOIN_FRAME.test(type))) {
      problems.push('joins must map client frame types named join<Something> to functions');
    }
  }
  // Duck-typed rather than instanceof: a plugin outside the repository may bring its own zod.
  const config = plugin.config as { safeParse?: unknown; shape?: unknown } | undefined;
  if (config !== undefined && (typeof config?.safeParse !== 'function' || typeof config.shape !== 'object')) {
    problems.push('config must be a zod object schema (z.object({...}))');
  }
  return problems;
}

function isFeatureKey(value: unknown): boolean {
  return typeof value === 'string' && FEATURE_KEY.test(value);
}

function isLabel(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const label = value as Record<string, unknown>;
  return typeof label['pt-BR'] === 'string' && ['en', 'es'].every((lang) => label[lang] === undefined || typeof label[lang] === 'string');
}

function limitProblems(limits: unknown): string[] {
  if (typeof limits !== 'object' || limits === null) return ['limits must map limit names to { label, default }'];
  return Object.entries(limits).flatMap(([key, limit]) => {
    const { label, default: fallback } = (limit ?? {}) as Record<string, unknown>;
    if (!isFeatureKey(key)) return [`limit ${key} must have a camelCase name (echoesPerMonth)`];
    if (!isLabel(label)) return [`limit ${key} needs a label with at least { 'pt-BR': text }`];
    if (!Number.isInteger(fallback) || (fallback as number) < 0) return [`limit ${key} needs a default that is a whole number, 0 or more`];
    return [];
  });
}

/** Declares a plugin: the default export of its entry module (DESIGN.md §7). */
export function definePlugin<S extends PluginConfigSchema = PluginConfigSchema>(plugin: PluginDefinition<S>): PluginDefinition<S> {
  const problems = pluginProblems(plugin);
  if (problems.length > 0) throw new Error(`Plugin ${String(plugin.name)}: ${problems.join('; ')}`);
  return plugin;
}
