import type { Container } from '../container.js';
import type { DomainEvent, EventName } from '../events/event-bus.js';
import type { AppRouter } from '../http/context.js';
import type { JobScheduler } from '../jobs/job-engine.js';
import { FEATURE_KEY, type PlanLabel, type PlanLimitDeclaration } from '../modules/plans/plan-catalogue.js';

/**
 * What every hook receives: the container, with `log` scoped to the plugin and `jobs` the
 * plugin's view of the job engine (its handlers re-check the plugin's flag when they run).
 */
export type PluginApp = Omit<Container, 'jobs'> & { jobs: JobScheduler };

export type PluginEventHook = (event: DomainEvent, app: PluginApp) => Promise<void>;

export interface PluginDefinition {
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
  /** Migrations folder, relative to the plugin's entry module; run after the core's, whatever the flag. */
  migrations?: string;
  /** Authenticated routes under /api; the host answers 403 ERR_PLAN_FEATURE_DISABLED when the flag is off. */
  routes?(router: AppRouter, app: PluginApp): void;
  /** Routes under /api with no authentication nor flag check (webhooks); they check what they need. */
  publicRoutes?(router: AppRouter, app: PluginApp): void;
  /** Job definitions; a job whose data has a companyId is skipped when the flag is off for it at run time. */
  jobs?(jobs: JobScheduler, app: PluginApp): void | Promise<void>;
  /** Domain event hooks, called for companies with the flag (and for events of no company). */
  events?: Partial<Record<EventName, PluginEventHook>>;
  /** Web pages and menu entries, built into the SPA (folder relative to the entry module). */
  web?: string;
  /** Runs at start-up before the database is touched. */
  register?(app: PluginApp): void | Promise<void>;
  /** Runs once the server listens, before jobs start. */
  bootstrap?(app: PluginApp): void | Promise<void>;
}

const PLUGIN_NAME = /^[a-z][a-z0-9-]*$/;

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
  for (const key of ['routes', 'publicRoutes', 'jobs', 'register', 'bootstrap'] as const) {
    if (plugin[key] !== undefined && typeof plugin[key] !== 'function') problems.push(`${key} must be a function`);
  }
  if (plugin.events !== undefined) {
    const events = plugin.events;
    if (typeof events !== 'object' || events === null || Object.values(events).some((hook) => typeof hook !== 'function')) {
      problems.push('events must map event names to functions');
    }
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
export function definePlugin<const P extends PluginDefinition>(plugin: P): P {
  const problems = pluginProblems(plugin);
  if (problems.length > 0) throw new Error(`Plugin ${String(plugin.name)}: ${problems.join('; ')}`);
  return plugin;
}
