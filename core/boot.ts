import type { Config } from './config/config.schema.js';
import type { Logger } from './logger.js';
import { createContainer, type Container } from './container.js';
import { connectCluster } from './cluster/cluster.js';
import { closeDatabase } from './db/database.js';
import { describeMissing, Migrator } from './db/migrator.js';
import { PluginHost } from './plugins/plugin-host.js';
import { DIRECT_PRUNE_JOB } from './modules/whatsapp/direct-messages.js';
import { PRESENCE_SWEEP_EVERY_MS, PRESENCE_SWEEP_JOB } from './cluster/presence.js';
import { listen, type RunningServer } from './server.js';
import { seedDemo, startDemoCustomers, type Demo } from './demo/demo.js';

/** The super admin created on a first start, with its password when it was generated. */
export interface InitialAdmin {
  email: string;
  password: string;
  generated: boolean;
}

export interface BootHooks {
  /**
   * Called once the super admin of a first start is committed and before the server listens, so
   * its credentials are kept and shown before anyone can reach the server.
   */
  onInitialAdmin?(admin: InitialAdmin): void;
}

export interface Atende {
  container: Container;
  server: RunningServer;
  /** The super admin created on this start, with its password when it was generated. */
  initialAdmin?: InitialAdmin;
  /** The demo company (serve --demo), with its users' passwords when this start created them. */
  demo?: Demo;
  stop(): Promise<void>;
}

/** Runs one start-up step and logs how long it took. */
async function step<T>(log: Logger, name: string, run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await run();
  log.debug({ ms: Math.round(performance.now() - started) }, `boot: ${name}`);
  return result;
}

/**
 * Start-up as one ordered sequence: the cluster link (Redis, when configured) → database → plugins load (register) → migrations (core, then
 * plugins) → without Redis, no other node running sessions on the database → presence reset →
 * platform data (the first super admin, handed to onInitialAdmin) → HTTP listen (with the plugins' routes) → demo data (--demo) → plugins bootstrap → jobs → WhatsApp
 * sessions, each once its lease is taken and its journal (what the last node running it left
 * unprocessed) resumed (→ the demo's customers).
 * stop() runs the same list backwards: sessions stop before jobs, the server, the plugins'
 * destroy hooks and the database.
 * The node's role picks what runs: a web node runs no job and no session (it still schedules jobs,
 * which the workers run); a worker serves only its health check, no API and no socket.
 */
export async function startAtende(config: Config, log: Logger, hooks: BootHooks = {}): Promise<Atende> {
  const cluster = await step(log, 'cluster', () => connectCluster(config, log));
  const container = createContainer(config, log, cluster);
  const stops: (() => Promise<void>)[] = [() => cluster.close(), () => closeDatabase(container.db)];
  const stop = async () => {
    for (const run of stops.reverse()) {
      await run().catch((err: unknown) => log.error({ err }, 'shutdown step failed'));
    }
  };
  try {
    await step(log, 'database', () => container.db.raw('select 1'));
    await step(log, 'media storage', () => container.media.check());
    if (config.smtpUrl && new URL(config.publicUrl).hostname === 'localhost') {
      log.warn('smtpUrl is set but publicUrl points at localhost: links in e-mails will not open on other machines; set publicUrl (ATENDE_PUBLIC_URL)');
    }
    const plugins = await step(log, 'plugins', async () => {
      const host = await PluginHost.load(container);
      // Before register, so the plugins whose register ran are destroyed if a later one fails.
      stops.push(() => host.destroy());
      await host.register();
      return host;
    });
    await step(log, 'migrations', async () => {
      const migrator = new Migrator(container.db, plugins.migrationDirs);
      describeMissing((await migrator.status()).missing).forEach((line) => log.warn(line));
      await migrator.latest((name) => log.info({ migration: name }, 'migrated'));
    });
    const works = config.role !== 'web';
    // Alone (no Redis), this node must be the only one running sessions on this database.
    if (works && !cluster.shared) await step(log, 'alone', () => container.leases.assertAlone());
    // No socket is open yet: online flags left by a crash are stale, unless another node holds sockets.
    await step(log, 'presence', async () => {
      if (await cluster.presence.aloneAtStart()) await container.services.users.markAllOffline();
    });
    // Before listen, so the first request already finds the admin's credentials kept. Should listen
    // fail after this, the admin and its kept password remain for the next start.
    const initialAdmin = await step(log, 'platform', () =>
      container.services.companies.ensurePlatform({ email: config.adminEmail, password: config.adminPassword }),
    );
    if (initialAdmin) hooks.onInitialAdmin?.(initialAdmin);
    // Stops after the server: a request's e-mail may still be on its way.
    stops.push(() => container.services.mail.idle());
    const server = await step(log, 'listen', () => listen(container, config.port, config.host, plugins.routers()));
    stops.push(() => server.close());
    const demo = config.demo ? await step(log, 'demo', () => seedDemo(container)) : undefined;
    // Registered before bootstrap: a plugin's bootstrap may already schedule jobs.
    stops.push(() => container.jobs.stop());
    await step(log, 'plugins bootstrap', () => plugins.bootstrap());
    if (works) await step(log, 'jobs', () => container.jobs.start());
    await step(log, 'ticket automations', () => container.services.ticketAutomations.schedule());
    await step(log, 'direct messages pruning', () => container.jobs.every(24 * 3_600_000, DIRECT_PRUNE_JOB));
    await step(log, 'presence sweep', () => container.jobs.every(PRESENCE_SWEEP_EVERY_MS, PRESENCE_SWEEP_JOB));
    // Stops run backwards: sessions stop first, then the pipeline finishes what they delivered,
    // then the plugins' event hooks what the pipeline told them.
    stops.push(() => container.bus.idle());
    stops.push(() => container.services.pipeline.idle());
    stops.push(() => container.sessions.stopAll());
    if (works) {
      await step(log, 'channels', () => container.sessions.startAll());
      if (demo?.connectionId !== undefined) stops.push(startDemoCustomers(container, demo.connectionId));
    }
    log.info({ url: server.url, version: config.version, role: config.role }, 'Atende is serving');
    return { container, server, initialAdmin, demo, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
