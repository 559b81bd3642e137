import Router from '@koa/router';
import type { Next } from 'koa';
import type { Container } from '../container.js';
import { PlanFeatureDisabledError } from '../errors.js';
import { requireAuth } from '../http/auth.middleware.js';
import type { AppContext, AppRouter, AppState } from '../http/context.js';
import type { JobData, JobHandler, JobOptions, JobScheduler } from '../jobs/job-engine.js';
import type { Logger } from '../logger.js';
import type { PluginApp } from './define-plugin.js';
import { loadPlugins, type LoadedPlugin } from './plugin-loader.js';

interface HostedPlugin extends LoadedPlugin {
  app: PluginApp;
}

/**
 * Runs the installed plugins' hooks at their step of start-up, each once, in plugin order, and
 * owns what they share: the plan flag checks on routes, jobs and event hooks, the plugin-scoped
 * logger, and error isolation (a failing event hook is logged, never felt by the emitter).
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

  /**
   * Finds and imports every plugin (DESIGN.md §7) and declares their plan flags and limits to the
   * plans' catalogue; fails on a malformed plugin, a duplicate name or a limit declared twice.
   */
  static async load(c: Container): Promise<PluginHost> {
    const loaded = await loadPlugins(c.config);
    for (const { definition } of loaded) {
      const flag = definition.flag === undefined ? undefined : { key: definition.flag, label: definition.flagLabel };
      c.services.plans.catalogue.declare(definition.name, flag, definition.limits);
    }
    return new PluginHost(c, loaded);
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
      for (const [event, hook] of Object.entries(definition.events ?? {})) {
        if (!hook) continue;
        this.c.bus.on(
          event,
          async (e) => {
            try {
              if (e.companyId !== null && !(await this.enabled(definition.flag, e.companyId))) return;
              await hook(e, app);
            } catch (err) {
              app.log.error({ err, event: e.name }, 'plugin event hook failed');
            }
          },
          `plugin:${definition.name}`,
        );
      }
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
  private async enabled(flag: string | undefined, companyId: number): Promise<boolean> {
    return !flag || this.c.services.plans.isEnabled(companyId, flag);
  }

  private flagGuard(flag: string) {
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
  private scheduler(flag: string | undefined, log: Logger): JobScheduler {
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
