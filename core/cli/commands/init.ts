import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Command, Option } from 'commander';
import type * as Prompts from '@inquirer/prompts';
import { CONFIG_FILE, generateSecret, loadConfig } from '../../config/load-config.js';
import type { ConfigValues } from '../../config/config.schema.js';
import { CliError, usageError } from '../errors.js';
import { commandLogger, resolveDir, type CliContext } from '../context.js';
import { createMigrator, migrateWithProgress } from '../migrations.js';
import { reportInitialAdmin } from '../initial-admin.js';
import {
  asPromptValidator,
  checkFlag,
  emailProblem,
  httpUrlProblem,
  isPostgresUrl,
  passwordProblem,
  portProblem,
  postgresUrlProblem,
} from '../validate.js';

interface InitOptions {
  dir?: string;
  db?: 'sqlite' | 'postgres';
  databaseUrl?: string;
  port?: string;
  publicUrl?: string;
  adminEmail?: string;
  adminPassword?: string;
  yes?: boolean;
}

/** What the person chose through flags or prompts; anything left undefined comes from env or defaults. */
interface Choices {
  databaseUrl?: string;
  port?: number;
  publicUrl?: string;
  adminEmail?: string;
  adminPassword?: string;
}

const DEFAULT_PORT = 8080;
const SQLITE_URL = 'data/atende.sqlite';

export function initCommand(ctx: CliContext): Command {
  return new Command('init')
    .description('write atende.config.json, create the database and the super admin')
    .option('--dir <path>', 'folder for atende.config.json and data/ (default: current folder)')
    .addOption(new Option('--db <kind>', 'database: sqlite (embedded) or postgres').choices(['sqlite', 'postgres']))
    .option('--database-url <url>', 'postgres://… address, or a SQLite file path relative to --dir')
    .option('--port <n>', `HTTP port (default: ${DEFAULT_PORT})`)
    .option('--public-url <url>', 'address users reach the product at (default: http://localhost:<port>)')
    .option('--admin-email <email>', 'super admin e-mail (default: admin@atende.local)')
    .option('--admin-password <password>', 'super admin password (default: a random one, printed once)')
    .option('--yes', 'use defaults for everything not given; never prompt')
    .action((options: InitOptions) => runInit(options, ctx));
}

async function runInit(options: InitOptions, ctx: CliContext): Promise<void> {
  const dir = resolveDir(options.dir);
  const file = path.join(dir, CONFIG_FILE);
  if (existsSync(file)) throw new CliError(`${file} already exists; init does not overwrite it (delete it to start over)`);

  const choices = await choose(options, ctx.interactive && !options.yes);
  const secrets = { jwtSecret: generateSecret(), jwtRefreshSecret: generateSecret() };
  const config = loadConfig({ dir, env: ctx.env, flags: { ...choices, ...secrets }, generateSecrets: false });

  const { createContainer } = await import('../../container.js');
  const { closeDatabase } = await import('../../db/database.js');
  const container = createContainer(config, commandLogger(config));
  try {
    await container.db.raw('select 1').catch((err: Error) => {
      throw new CliError(`cannot reach the database ${describeDatabase(config.databaseUrl)}: ${err.message}`);
    });
    const ran = await migrateWithProgress(await createMigrator(container.db, config), ctx.print);
    if (ran === 0) ctx.print('database schema already up to date');
    const admin = await container.services.companies.ensurePlatform({ email: config.adminEmail, password: config.adminPassword });
    if (admin) reportInitialAdmin(admin, dir, ctx.print);
    else ctx.print('the database already has users; no super admin was created');
  } finally {
    await closeDatabase(container.db);
  }

  // Written last, so a failed database step can simply be retried with the same command.
  const written: Partial<ConfigValues> = {
    port: config.port,
    ...(choices.publicUrl ? { publicUrl: choices.publicUrl } : {}),
    databaseUrl: config.databaseUrl,
    adminEmail: config.adminEmail,
    ...secrets,
  };
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, `${JSON.stringify(written, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  ctx.print(`wrote ${file}`);
  ctx.print(`next: atende serve${options.dir ? ` --dir ${options.dir}` : ''}`);
}

/** Flags first (all checked before any question), then prompts when asking is allowed. */
async function choose(options: InitOptions, ask: boolean): Promise<Choices> {
  // Loaded by the commands that ask, not by the server's start.
  const prompts = await import('@inquirer/prompts');
  const { input, password } = prompts;
  if (options.port !== undefined) checkFlag('--port', options.port, portProblem);
  if (options.publicUrl !== undefined) checkFlag('--public-url', options.publicUrl, httpUrlProblem);
  if (options.adminEmail !== undefined) checkFlag('--admin-email', options.adminEmail, emailProblem);
  if (options.adminPassword !== undefined) checkFlag('--admin-password', options.adminPassword, passwordProblem);
  const databaseUrl = await chooseDatabase(options, ask, prompts);

  const port = options.port ?? (ask ? await input({ message: 'HTTP port', default: String(DEFAULT_PORT), validate: asPromptValidator(portProblem) }) : undefined);
  const localUrl = `http://localhost:${port ?? DEFAULT_PORT}`;
  let publicUrl = options.publicUrl;
  if (publicUrl === undefined && ask) {
    const answer = await input({ message: 'Public address', default: localUrl, validate: asPromptValidator(httpUrlProblem) });
    // The default follows the port, so it is left out of the file rather than frozen there.
    publicUrl = answer === localUrl ? undefined : answer;
  }
  const adminEmail =
    options.adminEmail ??
    (ask ? await input({ message: 'Super admin e-mail', default: 'admin@atende.local', validate: asPromptValidator(emailProblem) }) : undefined);
  let adminPassword = options.adminPassword;
  if (adminPassword === undefined && ask) {
    const answer = await password({
      message: 'Super admin password (empty: generate one)',
      mask: '*',
      validate: (value) => value === '' || (passwordProblem(value) ?? true),
    });
    adminPassword = answer === '' ? undefined : answer;
  }
  return { databaseUrl, port: port === undefined ? undefined : Number(port), publicUrl, adminEmail, adminPassword };
}

async function chooseDatabase(options: InitOptions, ask: boolean, { input, select }: typeof Prompts): Promise<string | undefined> {
  const url = options.databaseUrl;
  if (options.db === 'postgres' && url !== undefined) return checkFlag('--database-url', url, postgresUrlProblem);
  if (options.db === 'sqlite' && url !== undefined) {
    if (isPostgresUrl(url)) throw usageError('--database-url is a postgres address but --db is sqlite');
    return url;
  }
  if (url !== undefined) return url;
  const kind = options.db ?? (ask ? await select({ message: 'Database', choices: databaseChoices }) : undefined);
  if (kind === 'sqlite') return SQLITE_URL;
  if (kind === 'postgres') {
    if (!ask) throw usageError('--db postgres needs --database-url postgres://user:password@host:5432/database');
    return input({ message: 'PostgreSQL address', validate: asPromptValidator(postgresUrlProblem) });
  }
  return undefined;
}

const databaseChoices = [
  { name: 'SQLite (embedded, nothing to install)', value: 'sqlite' as const },
  { name: 'PostgreSQL (an existing server)', value: 'postgres' as const },
];

/** A database address fit for an error line: the password is never echoed. */
function describeDatabase(url: string): string {
  if (!isPostgresUrl(url)) return url;
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}
