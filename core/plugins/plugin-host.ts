import Router from '@koa/router';
import type { Next } from 'koa';
import { exponential } from 'agenda';
import type { Container } from '../container.js';
import type { DomainEvent, EventOf, KnownEventName } from '../events/event-bus.js';
import { PlanFeatureDisabledError } from '../errors.js';
import { requireAuth } from '../http/auth.middleware.js';
import type { AppContext, AppRouter, AppState } from '../http/context.js';
import type { JobData, JobHandler, JobOptions, JobScheduler } from '../jobs/job-engine.js';
import type { Logger } from '../logger.js';
import type { PlanFlag } from '../modules/plans/plan.model.js';
import type { PluginApp, PluginEventHandler, PluginEventHook } from './define-plugin.js';
import { loadPlugins, type LoadedPlugin } from './plugin-loader.js';

interface HostedPlugin extends LoadedPlugin {
  app: PluginApp;
}

/** A plugin's durable hooks run as `<plugin>.events` jobs: the event is a fact, so it travels whole. */
const DURABLE_EVENT_JOB = 'events';
type DurableEventJob = { event: string; companyId: number | null; payload: string };
/** A durable hook that throws is tried again: 1 s, 2 s, 4 s… up to ten times. */
const DURABLE_EVENT_BACKOFF = exponential({ delay: 1000, maxRetries: 10 });

/**
 * Runs the installed plugins' hooks at their step of start-up, each once, in plugin order, and
 * owns what they share: the plan flag checks on routes, jobs, event hooks and conversation steps,
 * the plugin-scoped logger, and error isolation (a failing event hook is logged, never felt by the
 * emitter).
 */
export class PluginHost {
  readonly plugins: HostedPlugin[];

  private constructor(
    private readonly c: Container,
    loaded: LoadedPlugin[],
  ) {
    this.plugins = loaded.map((plugin) => {
      const log = c.log.child({ plugin: plugin.definition.name });
      return { ...plugin, app: { ...c, log, jobs: this.scheduler(plugin.definition.flag, log) } };
    });
  }

  /** Finds and imports every plugin (DESIGN.md §7); fails on a malformed plugin or a duplicate name. */
  static async load(c: Container): Promise<PluginHost> {
    return new PluginHost(c, await loadPlugins(c.config));
  }

  /** Absolute migrations folders in plugin order, for the Migrator after the core's. */
  get migrationDirs(): string[] {
    return this.plugins.flatMap((p) => (p.migrationsDir ? [p.migrationsDir] : []));
  }

  /** Before the database work: each plugin's register hook, its job definitions and its event hooks. */
  async register(): Promise<void> {
    for (const plugin of this.plugins) {
      const { definition, app } = plugin;
      await this.run(plugin, 'register', () => definition.register?.(app));
      await this.run(plugin, 'jobs', () => definition.jobs?.(app.jobs, app));
      this.hookEvents(plugin);
      for (const [name, step] of Object.entries(definition.steps ?? {})) {
        this.c.services.pipeline.steps.add({
          name: `${definition.name}.${name}`,
          run: async (turn) => (await this.enabled(definition.flag, turn.companyId)) && step(turn, app),
        });
      }
    }
  }

  /**
   * A plugin's event hooks, called only for companies with its flag (and for events of no
   * company). Plain hooks run in the plugin's own queue after the emitter has moved on; a failure
   * is logged. Durable ones go through the plugin's event job, written as the event is emitted
   * (after the commit) and retried with backoff while the hook throws.
   */
  private hookEvents({ definition, app }: HostedPlugin): void {
    const label = `plugin:${definition.name}`;
    const durable = new Map<string, PluginEventHandler>();
    const wanted = async (e: DomainEvent) => e.companyId === null || (await this.enabled(definition.flag, e.companyId));
    for (const [event, hook] of Object.entries(definition.events ?? {}) as [KnownEventName, PluginEventHook | undefined][]) {
      if (!hook) continue;
      const handle = (typeof hook === 'function' ? hook : hook.handle) as PluginEventHandler;
      if (typeof hook !== 'function' && hook.durable) {
        durable.set(event, handle);
        continue;
      }
      this.c.bus.listen(
        event,
        async (e) => {
          try {
            if (await wanted(e)) await handle(e as EventOf<KnownEventName>, app);
          } catch (err) {
            app.log.error({ err, event: e.name }, 'plugin event hook failed');
          }
        },
        label,
      );
    }
    if (durable.size === 0) return;

    const job = `${definition.name}.${DURABLE_EVENT_JOB}`;
    app.jobs.define<DurableEventJob>(
      job,
      async ({ event, companyId, payload }) => {
        const e = { name: event, companyId, payload: JSON.parse(payload) as unknown } as EventOf<KnownEventName>;
        await durable.get(event)?.(e, app);
      },
      { backoff: DURABLE_EVENT_BACKOFF },
    );
    for (const event of durable.keys()) {
      this.c.bus.on(
        event,
        async (e) => {
          if (await wanted(e)) await this.c.jobs.now<DurableEventJob>(job, { event, companyId: e.companyId, payload: JSON.stringify(e.payload) });
        },
        label,
      );
    }
  }

  /** The plugins' routers for createHttpApp: authenticated and flag-guarded ones, then public ones, per plugin. */
  routers(): AppRouter[] {
    const routers: AppRouter[] = [];
    for (const plugin of this.plugins) {
      const { definition, app } = plugin;
      if (definition.routes) {
        const router = this.router(plugin, 'routes', (r) => definition.routes!(r, app));
        const guards = [requireAuth(this.c)];
        if (definition.flag) guards.push(this.flagGuard(definition.flag));
        for (const layer of router.stack) layer.stack.unshift(...guards);
        routers.push(router);
      }
      if (definition.publicRoutes) {
        routers.push(this.router(plugin, 'publicRoutes', (r) => definition.publicRoutes!(r, app)));
      }
    }
    return routers;
  }

  /** After the server listens, before jobs start. */
  async bootstrap(): Promise<void> {
    for (const plugin of this.plugins) {
      await this.run(plugin, 'bootstrap', () => plugin.definition.bootstrap?.(plugin.app));
    }
  }

  private async run(plugin: LoadedPlugin, hook: string, call: () => unknown): Promise<void> {
    try {
      await call();
    } catch (err) {
      throw new Error(`plugin ${plugin.definition.name}: ${hook} failed: ${(err as Error).message}`, { cause: err });
    }
  }

  /** A flag-less plugin is always on; otherwise the company's plan decides. */
  private async enabled(flag: PlanFlag | undefined, companyId: number): Promise<boolean> {
    return !flag || this.c.services.plans.isEnabled(companyId, flag);
  }

  private flagGuard(flag: PlanFlag) {
    return async (ctx: AppContext, next: Next): Promise<void> => {
      if (!(await this.enabled(flag, ctx.state.user.companyId))) throw new PlanFeatureDisabledError(flag);
      await next();
    };
  }

  /**
   * A fresh router filled by one hook. Router-level `use()` middleware is refused: once mounted
   * under /api, @koa/router would run it for every route registered after it, other plugins' too.
   */
  private router(plugin: LoadedPlugin, hook: string, fill: (router: AppRouter) => void): AppRouter {
    const router: AppRouter = new Router<AppState>();
    fill(router);
    if (router.stack.some((layer) => layer.methods.length === 0)) {
      throw new Error(`plugin ${plugin.definition.name}: ${hook} used router.use(); pass middleware to each route instead`);
    }
    return router;
  }

  /** The job engine as a plugin sees it: handlers re-check the flag for the job's company at run time. */
  private scheduler(flag: PlanFlag | undefined, log: Logger): JobScheduler {
    const { jobs } = this.c;
    return {
      define: <D extends JobData>(name: string, handler: JobHandler<D>, options?: JobOptions) => {
        jobs.define<D>(
          name,
          async (data, job) => {
            const { companyId } = data;
            if (typeof companyId === 'number' && !(await this.enabled(flag, companyId))) {
              log.info({ job: name, companyId }, 'job skipped: the plan feature is off for this company');
              return;
            }
            await handler(data, job);
          },
          options,
        );
      },
      now: (name, data) => jobs.now(name, data),
      schedule: (when, name, data) => jobs.schedule(when, name, data),
      every: (intervalMs, name, data, options) => jobs.every(intervalMs, name, data, options),
      cancel: (query) => jobs.cancel(query),
    };
  }
}
