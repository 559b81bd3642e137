import { createServer } from 'node:net';
import { Command } from 'commander';
import { loadConfig } from '../../config/load-config.js';
import { createLogger } from '../../logger.js';
import type { Atende } from '../../boot.js';
import { CliError } from '../errors.js';
import { resolveDir, type CliContext } from '../context.js';
import { reportInitialAdmin } from '../initial-admin.js';
import { reportDemo } from '../../demo/report.js';
import { checkFlag, portProblem, roleProblem } from '../validate.js';

interface ServeOptions {
  dir?: string;
  port?: string;
  demo?: boolean;
  role?: string;
}

export function serveCommand(ctx: CliContext): Command {
  return new Command('serve')
    .description('start the server (migrates first when the schema is behind)')
    .option('--dir <path>', 'folder holding atende.config.json and data/ (default: current folder)')
    .option('--port <n>', 'HTTP port (overrides the config and PORT)')
    .option('--demo', 'demo mode: a demo tenant with a simulated WhatsApp connection')
    .option('--role <role>', 'all (default), web (HTTP and sockets only) or worker (WhatsApp sessions and jobs only); overrides the config and ATENDE_ROLE')
    .action((options: ServeOptions) => runServe(options, ctx));
}

/** Serves until SIGINT or SIGTERM, then shuts down gracefully and returns; a second signal exits at once. */
async function runServe(options: ServeOptions, ctx: CliContext): Promise<void> {
  const port = options.port === undefined ? undefined : Number(checkFlag('--port', options.port, portProblem));
  const role = options.role === undefined ? undefined : checkFlag('--role', options.role, roleProblem);
  const config = loadConfig({
    dir: resolveDir(options.dir),
    env: ctx.env,
    flags: { port, role, demo: options.demo ? true : undefined },
    generateSecrets: true,
  });
  const log = createLogger(config.logLevel);
  // Checked before the boot so a taken port fails before the database is touched and before a
  // super admin is created. Taken in between, the admin's password is already kept in its file.
  if (config.port !== 0) await assertPortFree(config.port, config.host);

  // Listening before the boot: a stop asked for while it boots, or the instant `serving` is printed,
  // still shuts down gracefully once the boot is done, instead of Node's default of dying at once.
  const stopSignal = nextSignal();
  const { startAtende } = await import('../../boot.js');
  let atende: Atende;
  try {
    atende = await startAtende(config, log, { onInitialAdmin: (admin) => reportInitialAdmin(admin, config.dir, ctx.print) });
  } catch (err) {
    throw listenError(err, config.port) ?? err;
  }
  if (atende.demo) reportDemo(atende.demo, ctx.print);
  ctx.print(`serving ${atende.server.url} from ${config.dir} (Ctrl-C stops)`);

  const signal = await stopSignal;
  process.on('SIGINT', forceExit);
  process.on('SIGTERM', forceExit);
  log.info({ signal }, 'shutting down');
  await atende.stop();
  ctx.print('stopped');
}

export function nextSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const handler = (signal: NodeJS.Signals) => {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
      resolve(signal);
    };
    process.on('SIGINT', handler);
    process.on('SIGTERM', handler);
  });
}

export function forceExit(): void {
  process.stderr.write('atende: second signal, exiting without waiting for the shutdown\n');
  process.exit(1);
}

async function assertPortFree(port: number, host: string): Promise<void> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', (err) => reject(listenError(err, port) ?? err));
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}

/** The listen failures a person can fix, as one line; anything else stays as it is. */
function listenError(err: unknown, port: number): CliError | undefined {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') return new CliError(`port ${port} is already in use; choose another with --port or PORT`);
  if (code === 'EACCES') return new CliError(`no permission to listen on port ${port}; use a port above 1023 or a proxy`);
  return undefined;
}
