import type { Container } from '../container.js';
import type { EventOf, KnownEventName } from '../events/event-bus.js';
import type { AppRouter } from '../http/context.js';
import type { JobScheduler } from '../jobs/job-engine.js';
import type { Turn } from '../modules/pipeline/steps/conversation-steps.js';
import { PLAN_FLAGS, type PlanFlag } from '../modules/plans/plan.model.js';

/**
 * What every hook receives: the container, with `log` scoped to the plugin and `jobs` the
 * plugin's view of the job engine (its handlers re-check the plugin's flag when they run).
 */
export type PluginApp = Omit<Container, 'jobs'> & { jobs: JobScheduler };

export type PluginEventHandler<N extends KnownEventName = KnownEventName> = (event: EventOf<N>, app: PluginApp) => Promise<void>;

/**
 * An event hook: a handler, run after the emitter's commit in the plugin's own queue, or
 * `{ durable: true, handle }`, delivered through a job written as the event is emitted and retried
 * when the handler throws, so that neither a crash nor a failing handler loses the event.
 */
export type PluginEventHook<N extends KnownEventName = KnownEventName> = PluginEventHandler<N> | { durable?: boolean; handle: PluginEventHandler<N> };

/** A conversation step: true claims the turn (later steps and the chatbot do not run), false passes. */
export type PluginStep = (turn: Turn, app: PluginApp) => Promise<boolean>;

export interface PluginDefinition {
  /** Unique among installed plugins; lowercase, digits and dashes. */
  name: string;
  /** Plan flag that enables the plugin per company; omitted = always on. Gates behaviour, never schema. */
  flag?: PlanFlag;
  /** Migrations folder, relative to the plugin's entry module; run after the core's, whatever the flag. */
  migrations?: string;
  /** Authenticated routes under /api; the host answers 403 ERR_PLAN_FEATURE_DISABLED when the flag is off. */
  routes?(router: AppRouter, app: PluginApp): void;
  /** Routes under /api with no authentication nor flag check (webhooks); they check what they need. */
  publicRoutes?(router: AppRouter, app: PluginApp): void;
  /** Job definitions; a job whose data has a companyId is skipped when the flag is off for it at run time. */
  jobs?(jobs: JobScheduler, app: PluginApp): void | Promise<void>;
  /** Domain event hooks, called for companies with the flag (and for events of no company). */
  events?: { [N in KnownEventName]?: PluginEventHook<N> };
  /** Conversation steps, in declaration order, before the core chatbot; for companies with the flag. */
  steps?: Record<string, PluginStep>;
  /** Web pages and menu entries, built into the SPA (folder relative to the entry module). */
  web?: string;
  /** Runs at start-up before the database is touched. */
  register?(app: PluginApp): void | Promise<void>;
  /** Runs once the server listens, before jobs start. */
  bootstrap?(app: PluginApp): void | Promise<void>;
}

const PLUGIN_NAME = /^[a-z][a-z0-9-]*$/;

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
  if (plugin.flag !== undefined && !PLAN_FLAGS.includes(plugin.flag as PlanFlag)) {
    problems.push(`flag must be one of ${PLAN_FLAGS.join(', ')}`);
  }
  for (const key of ['migrations', 'web'] as const) {
    if (plugin[key] !== undefined && typeof plugin[key] !== 'string') problems.push(`${key} must be a folder name`);
  }
  for (const key of ['routes', 'publicRoutes', 'jobs', 'register', 'bootstrap'] as const) {
    if (plugin[key] !== undefined && typeof plugin[key] !== 'function') problems.push(`${key} must be a function`);
  }
  if (plugin.events !== undefined && !mapsTo(plugin.events, isEventHook)) {
    problems.push('events must map event names to functions or { durable, handle } objects');
  }
  if (plugin.steps !== undefined && !mapsTo(plugin.steps, (step) => typeof step === 'function')) {
    problems.push('steps must map step names to functions');
  }
  return problems;
}

/** Declares a plugin: the default export of its entry module (DESIGN.md §7). */
export function definePlugin<const P extends PluginDefinition>(plugin: P): P {
  const problems = pluginProblems(plugin);
  if (problems.length > 0) throw new Error(`Plugin ${String(plugin.name)}: ${problems.join('; ')}`);
  return plugin;
}
