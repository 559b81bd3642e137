import Router from '@koa/router';
import type { Next } from 'koa';
import { exponential } from 'agenda';
import { ConfigError } from '../config/load-config.js';
import { sealedSecrets } from '../auth/sealed-secrets.js';
import { checkOutgoingUrl } from '../outgoing/outgoing-url.js';
import type { Container } from '../container.js';
import type { DomainEvent, EventOf, KnownEventName } from '../events/event-bus.js';
import { PlanFeatureDisabledError } from '../errors.js';
import { requireAuth } from '../http/auth.middleware.js';
import type { AppContext, AppRouter, AppState } from '../http/context.js';
import type { PluginRouter } from '../http/app.js';
import type { JobData, JobHandler, JobOptions, JobScheduler } from '../jobs/job-engine.js';
import type { Logger } from '../logger.js';
import { PLUGIN_SERVICES, type PluginApp, type PluginEventHandler, type PluginEventHook, type PluginServices } from './define-plugin.js';
import { loadPlugins, type LoadedPlugin } from './plugin-loader.js';

interface HostedPlugin extends LoadedPlugin {
  app: PluginApp<Record<string, unknown>>;
}

/** A plugin's durable hooks run as `<plugin>.events` jobs: the event is a fact, so it travels whole. */
const DURABLE_EVENT_JOB = 'events';
type DurableEventJob = { event: string; companyId: number | null; payload: string };
/** A durable hook that throws is tried again: 1 s, 2 s, 4 s… up to ten times. */
const DURABLE_EVENT_BACKOFF = exponential({ delay: 1000, maxRetries: 10 });

/**
 * Runs the installed plugins' hooks at their step of start-up and shutdown, each once, in plugin
 * order, and owns what they share: the plan flag checks on routes, socket joins, jobs, event hooks
 * and conversation steps, the plugin-scoped logger, namespaced realtime rooms, and error isolation
 * (a failing event hook is logged, never felt by the emitter).
 */
export class PluginHost {
  readonly plugins: HostedPlugin[];
  /** What each plugin provides to the others, built on first use. */
  private readonly provided = new Map<string, object | undefined>();

  private constructor(
    private readonly c: Container,
    loaded: LoadedPlugin[],
  ) {
    const services = this.services();
    this.plugins = loaded.map((plugin) => ({ ...plugin, app: this.app(plugin, services) }));
  }

  /**
   * Finds and imports every plugin (DESIGN.md §7) and declares their plan flags and limits to the
   * plans' catalogue; fails on a malformed plugin, a bad config, a duplicate name or a limit declared twice.
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

  /** Before the database work: each plugin's register hook, its jobs, event hooks and join rules. */
  async register(): Promise<void> {
    for (const plugin of this.plugins) {
      const { definition, app } = plugin;
      await this.run(plugin, 'register', () => definition.register?.(app));
      await this.run(plugin, 'jobs', () => definition.jobs?.(app.jobs, app));
      this.hookEvents(plugin);
      for (const [name, step] of Object.entries(definition.steps ?? {})) {
        this.c.services.pipeline.steps.add({
          name: `${definition.name}.${name}`,
          enabled: (companyId) => this.enabled(definition.flag, companyId),
          run: (turn) => step(turn, app),
        });
      }
      this.defineJoins(plugin);
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
    const durable = new Map<string, { handle: PluginEventHandler; when?: (e: EventOf<KnownEventName>, a: PluginApp) => boolean | Promise<boolean> }>();
    const wanted = async (e: DomainEvent) => e.companyId === null || (await this.enabled(definition.flag, e.companyId));
    for (const [event, hook] of Object.entries(definition.events ?? {}) as [KnownEventName, PluginEventHook | undefined][]) {
      if (!hook) continue;
      const handle = (typeof hook === 'function' ? hook : hook.handle) as PluginEventHandler;
      if (typeof hook !== 'function' && hook.durable) {
        durable.set(event, { handle, when: hook.when as ((e: EventOf<KnownEventName>, a: PluginApp) => boolean | Promise<boolean>) | undefined });
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
        await durable.get(event)?.handle(e, app);
      },
      { backoff: DURABLE_EVENT_BACKOFF },
    );
    for (const [event, { when }] of durable) {
      this.c.bus.on(
        event,
        async (e) => {
          if (!(await wanted(e))) return;
          if (when && !(await when(e as EventOf<KnownEventName>, app))) return;
          await this.c.jobs.now<DurableEventJob>(job, { event, companyId: e.companyId, payload: JSON.stringify(e.payload) });
        },
        label,
      );
    }
  }

  /** The names of the plugins this installation turned on (their `active` hook), in plugin order. */
  get active(): string[] {
    return this.plugins.filter(({ definition, app }) => definition.active?.(app.config) ?? true).map((p) => p.definition.name);
  }

  /**
   * The plugins' routers for createHttpApp: the host's own (GET /plugins/active, which the web app
   * reads at sign-in), then per plugin its authenticated and flag-guarded routes and its public ones.
   */
  routers(): PluginRouter[] {
    const own: AppRouter = new Router<AppState>();
    own.get('/plugins/active', requireAuth(this.c), (ctx) => {
      ctx.body = { plugins: this.active };
    });
    const routers: PluginRouter[] = [{ owner: 'the plugin host', router: own, rawBody: false }];
    for (const plugin of this.plugins) {
      const { definition, app } = plugin;
      const owner = `plugin ${definition.name}`;
      // Each router carries the descriptions of its own routes.
      const docsOf = (router: AppRouter) => (definition.apiDocs ?? []).filter((doc) => router.match(doc.path, doc.method).route);
      if (definition.routes) {
        const router = this.router(plugin, 'routes', (r) => definition.routes!(r, app));
        const guards = [requireAuth(this.c)];
        if (definition.flag) guards.push(this.flagGuard(definition.flag));
        for (const layer of router.stack) layer.stack.unshift(...guards);
        routers.push({ owner, router, rawBody: false, docs: docsOf(router) });
      }
      if (definition.publicRoutes) {
        const router = this.router(plugin, 'publicRoutes', (r) => definition.publicRoutes!(r, app));
        routers.push({ owner, router, rawBody: definition.rawBody === true, docs: docsOf(router) });
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

  /** On shutdown, in reverse order of loading: a failing destroy is logged and the others still run. */
  async destroy(): Promise<void> {
    for (const { definition, app } of [...this.plugins].reverse()) {
      try {
        await definition.destroy?.(app);
      } catch (err) {
        app.log.error({ err }, 'plugin destroy failed');
      }
    }
  }

  private async run(plugin: LoadedPlugin, hook: string, call: () => unknown): Promise<void> {
    try {
      await call();
    } catch (err) {
      throw new Error(`plugin ${plugin.definition.name}: ${hook} failed: ${(err as Error).message}`, { cause: err });
    }
  }

  /** The stable services every plugin shares (PluginServices). */
  private services(): PluginServices {
    const picked = Object.fromEntries(PLUGIN_SERVICES.map((name) => [name, this.c.services[name]]));
    return { ...(picked as Pick<PluginServices, (typeof PLUGIN_SERVICES)[number]>), media: this.c.media };
  }

  /** One plugin's narrow view of the server. */
  private app(plugin: LoadedPlugin, services: PluginServices): PluginApp<Record<string, unknown>> {
    const { name, flag } = plugin.definition;
    const { bus, realtime } = this.c;
    const log = this.c.log.child({ plugin: name });
    const room = (r: string | string[]) => (Array.isArray(r) ? r.map((one) => `${name}:${one}`) : `${name}:${r}`);
    return {
      name,
      log,
      db: this.c.db,
      jobs: this.scheduler(flag, log),
      realtime: {
        publish: (companyId, channel, data, to) => realtime.publish(companyId, channel, data, to === undefined ? undefined : room(to)),
        // The core's per-user rooms (`user:<id>`), outside the plugin's namespace on purpose.
        publishToUsers: (companyId, channel, data, userIds) => {
          if (userIds.length > 0) realtime.publish(companyId, channel, data, userIds.map((id) => `user:${id}`));
        },
      },
      events: {
        emit: (event, companyId, payload) => bus.emit(event, companyId, payload),
        on: (event, handler) => bus.on(event, handler, `plugin:${name}`),
      },
      config: plugin.config,
      services,
      outgoing: {
        checkUrl: (url) => checkOutgoingUrl(url, { allowPrivate: this.c.config.allowPrivateUrls }),
        allowPrivateUrls: this.c.config.allowPrivateUrls,
      },
      auth: { registerBearer: (prefix, resolve) => this.c.services.auth.bearers.register(prefix, resolve, `plugin ${name}`) },
      secrets: sealedSecrets(this.c.config.jwtSecret, `plugin:${name}`),
      attempts: this.c.cluster.attempts,
      signals: this.c.cluster.signals,
      plugin: <T extends object>(other: string) => this.provision(other) as T | undefined,
    };
  }

  /** Another plugin's `provides`, built once with its own app. */
  private provision(name: string): object | undefined {
    if (!this.provided.has(name)) {
      const target = this.plugins.find((p) => p.definition.name === name);
      this.provided.set(name, target?.definition.provides?.(target.app));
    }
    return this.provided.get(name);
  }

  /**
   * A plugin's join rules: rooms inside its namespace (`<plugin>:<room>`), for companies whose plan
   * has its flag. A frame type the core or another plugin already has is refused at start.
   */
  private defineJoins(plugin: HostedPlugin): void {
    const { definition, app } = plugin;
    for (const [type, rule] of Object.entries(definition.joins ?? {})) {
      const policy = async (user: Parameters<typeof rule>[0], data: unknown) => {
        if (!(await this.enabled(definition.flag, user.companyId))) return null;
        const room = await rule(user, data, app);
        return room === null ? null : `${definition.name}:${room}`;
      };
      try {
        this.c.realtime.definePolicy(type, policy, `plugin ${definition.name}`);
      } catch (err) {
        throw new ConfigError(`plugin ${definition.name}: ${(err as Error).message}`);
      }
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
