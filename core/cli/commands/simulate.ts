import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { loadConfig } from '../../config/load-config.js';
import { CliError, usageError } from '../errors.js';
import { resolveDir, type CliContext } from '../context.js';
import { INITIAL_ADMIN_FILE } from '../initial-admin.js';
import { checkFlag, httpUrlProblem, portProblem, type Check } from '../validate.js';
import { createLogger } from '../../logger.js';
import { forceExit, nextSignal } from './serve.js';
import { ErrorCode } from '../../contract/error-codes.js';

interface CommonOptions {
  dir?: string;
  url?: string;
  email?: string;
  password?: string;
  connection: string;
}

interface MessageOptions extends CommonOptions {
  from: string;
  name: string;
  body: string;
  id?: string;
}

const connectionProblem: Check = (value) => (/^[1-9]\d{0,9}$/.test(value) ? undefined : `must be a connection id (got "${value}")`);
const numberProblem: Check = (value) => {
  const digits = value.replace(/\D/g, '');
  return digits.length >= 8 && digits.length <= 15 ? undefined : `must be a phone number of 8 to 15 digits (got "${value}")`;
};

function withCommonOptions(command: Command): Command {
  return command
    .requiredOption('--connection <id>', 'id of the simulated connection')
    .option('--dir <path>', 'folder holding atende.config.json and data/ (default: current folder)')
    .option('--url <url>', "the server's address (default: http://localhost:<the config's port>)")
    .option('--email <email>', "an admin of the connection's company, or a super user (default: the config's adminEmail); signing in ends that user's other session")
    .option('--password <password>', 'that user\'s password (default: ATENDE_ADMIN_PASSWORD or data/initial-admin.txt)');
}

/** `atende simulate …`: plays the phone and the customers of a simulated connection, through its test API. */
export function simulateCommand(ctx: CliContext): Command {
  const simulate = new Command('simulate').description('drive a simulated WhatsApp connection (demo or ATENDE_SIMULATOR=1)');

  simulate.addCommand(
    withCommonOptions(new Command('scan').description('scan the QR code: the connection pairs and turns CONNECTED')).action(
      async (options: CommonOptions) => {
        const api = await SimulatorClient.open(options, ctx);
        const answer = await api.post<{ number: string }>('scan', {});
        ctx.print(`connection ${api.connection} connected as ${answer.number}`);
      },
    ),
  );

  simulate.addCommand(
    withCommonOptions(new Command('message').description('a customer writes to the connection'))
      .requiredOption('--from <number>', "the customer's phone number")
      .requiredOption('--name <name>', "the customer's name")
      .requiredOption('--body <text>', 'the message')
      .option('--id <id>', 'the provider message id (repeat one to replay a message)')
      .action(async (options: MessageOptions) => {
        checkFlag('--from', options.from, numberProblem);
        const api = await SimulatorClient.open(options, ctx);
        const answer = await api.post<{ message: { id: string; chatId: string } }>('inbound', {
          from: options.from,
          name: options.name,
          body: options.body,
          ...(options.id !== undefined && { id: options.id }),
        });
        ctx.print(`message ${answer.message.id} from ${answer.message.chatId} delivered to connection ${api.connection}`);
      }),
  );

  simulate.addCommand(
    withCommonOptions(new Command('disconnect').description('the phone unlinks the connection: DISCONNECTED')).action(
      async (options: CommonOptions) => {
        const api = await SimulatorClient.open(options, ctx);
        await api.post('disconnect', {});
        ctx.print(`connection ${api.connection} disconnected`);
      },
    ),
  );

  simulate.addCommand(
    new Command('server')
      .description('hold the simulated phones in a process of their own: nodes with ATENDE_SIMULATOR_URL=http://<host>:<port> link to it')
      .requiredOption('--port <n>', 'port to listen on')
      .option('--host <host>', 'interface to bind (its test API has no sign-in: keep it on loopback)', '127.0.0.1')
      .action((options: ServerOptions) => runSimulatorServer(options, ctx)),
  );

  return simulate;
}

interface ServerOptions {
  port: string;
  host: string;
}

/** Serves until SIGINT or SIGTERM, then closes every driver's socket and returns. */
async function runSimulatorServer(options: ServerOptions, ctx: CliContext): Promise<void> {
  const port = Number(checkFlag('--port', options.port, portProblem));
  const { SimulatorServer } = await import('../../channels/simulator/simulator-server.js');
  const server = new SimulatorServer(createLogger('warn'));
  const stopSignal = nextSignal(); // before `simulated WhatsApp at` is printed, so a stop right after it is graceful
  const url = await server.listen(port, options.host).catch((err: unknown) => {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new CliError(`port ${port} is already in use; choose another with --port`);
    if (code === 'EACCES') throw new CliError(`no permission to listen on port ${port}; use a port above 1023`);
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new CliError(`cannot listen on ${options.host}; pass an address of this machine with --host`);
    throw err;
  });
  ctx.print(`simulated WhatsApp at ${url} (Ctrl-C stops)`);
  await stopSignal;
  process.on('SIGINT', forceExit);
  process.on('SIGTERM', forceExit);
  await server.close();
  ctx.print('stopped');
}

/** Signed in to the server's API as the given (or the configured) admin. */
class SimulatorClient {
  private constructor(
    private readonly url: string,
    private readonly token: string,
    readonly connection: number,
  ) {}

  static async open(options: CommonOptions, ctx: CliContext): Promise<SimulatorClient> {
    const connection = Number(checkFlag('--connection', options.connection, connectionProblem));
    if (options.url !== undefined) checkFlag('--url', options.url, httpUrlProblem);
    const dir = resolveDir(options.dir);
    // The config is read only for what the flags leave out.
    const config =
      options.url === undefined || options.email === undefined || options.password === undefined
        ? loadConfig({ dir, env: ctx.env, generateSecrets: false })
        : undefined;
    const url = (options.url ?? `http://localhost:${config!.port}`).replace(/\/+$/, '');
    const email = options.email ?? config!.adminEmail;
    const password = options.password ?? config?.adminPassword ?? initialAdminPassword(dir);
    if (password === undefined) {
      throw usageError(`no password for ${email}: pass --password, or set ATENDE_ADMIN_PASSWORD`);
    }
    const login = await request<{ token: string }>(url, 'POST', '/api/auth/login', { email, password });
    return new SimulatorClient(url, login.token, connection);
  }

  post<T>(action: string, body: unknown): Promise<T> {
    return request<T>(this.url, 'POST', `/api/simulator/${this.connection}/${action}`, body, this.token);
  }
}

/** The generated super admin password `serve` kept in data/initial-admin.txt, when there is one. */
function initialAdminPassword(dir: string): string | undefined {
  const file = path.join(dir, INITIAL_ADMIN_FILE);
  if (!existsSync(file)) return undefined;
  return /^password: (\S+)$/m.exec(readFileSync(file, 'utf8'))?.[1];
}

async function request<T>(url: string, method: string, route: string, body: unknown, token?: string): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url + route, {
      method,
      headers: { 'Content-Type': 'application/json', ...(token && { Authorization: `Bearer ${token}` }) },
      body: JSON.stringify(body),
    });
  } catch {
    throw new CliError(`cannot reach ${url}; is \`atende serve\` running there?`);
  }
  const text = await res.text();
  let parsed: { error?: string; message?: string } | undefined;
  try {
    parsed = JSON.parse(text) as { error?: string; message?: string };
  } catch {
    parsed = undefined;
  }
  if (!res.ok) {
    if (res.status === 404 && parsed?.error === ErrorCode.ERR_ROUTE_NOT_FOUND) {
      throw new CliError(`the server at ${url} has the simulator off; start it with --demo or ATENDE_SIMULATOR=1`);
    }
    const reason = parsed?.error ? `${parsed.error}: ${parsed.message ?? ''}`.trim() : `HTTP ${res.status}`;
    throw new CliError(`${route.startsWith('/api/auth/') ? 'login failed' : 'the server refused'} (${res.status} ${reason})`);
  }
  return parsed as T;
}
