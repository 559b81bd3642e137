import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { configEntries, configSchema, type Config, type ConfigKey } from './config.schema.js';
import { packageVersion } from './package-info.js';

export const CONFIG_FILE = 'atende.config.json';
const SECRETS_FILE = 'data/secrets.json';

export class ConfigError extends Error {}

export interface LoadConfigOptions {
  dir?: string;
  /** Values from command-line flags: the top layer. */
  flags?: Partial<Record<ConfigKey, unknown>>;
  env?: NodeJS.ProcessEnv;
  /** Create data/secrets.json when no secret is configured (serve does; read-only commands need not). */
  generateSecrets?: boolean;
}

export function readConfigFile(dir: string): Record<string, unknown> {
  const file = path.join(dir, CONFIG_FILE);
  if (!existsSync(file)) return {};
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new ConfigError(`${file}: must hold a JSON object`);
    }
    return parsed as Record<string, unknown>;
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    throw new ConfigError(`${file}: not valid JSON (${(err as Error).message})`);
  }
}

function fromEnv(env: NodeJS.ProcessEnv): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(configEntries)) {
    const name = entry.env.find((n) => env[n] !== undefined && env[n] !== '');
    if (name) values[key] = env[name];
  }
  return values;
}

/** Plugins read ATENDE_PLUGIN_<NAME>_<KEY>, and the ATENDE_ names their `configEnv` gives. */
const PLUGIN_ENV_PREFIX = 'ATENDE_';

function pluginEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[0].startsWith(PLUGIN_ENV_PREFIX) && entry[1] !== undefined),
  );
}

function withoutUndefined(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
}

/** Secrets for a setup that never ran `init`: generated once and kept in data/secrets.json (0600). */
function storedSecrets(dir: string, generate: boolean): { jwtSecret?: string; jwtRefreshSecret?: string } {
  const file = path.join(dir, SECRETS_FILE);
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as { jwtSecret: string; jwtRefreshSecret: string };
  if (!generate) return {};
  const secrets = { jwtSecret: generateSecret(), jwtRefreshSecret: generateSecret() };
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

export function generateSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function parseDatabaseUrl(url: string, dir: string): Config['database'] {
  if (/^postgres(ql)?:\/\//.test(url)) return { client: 'pg', connectionString: url };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) {
    throw new ConfigError(`databaseUrl: unsupported address "${url}"; use postgres://… or a SQLite file path`);
  }
  const filename = url.startsWith('sqlite:') ? url.slice('sqlite:'.length) : url;
  return { client: 'sqlite', filename: filename === ':memory:' ? filename : path.resolve(dir, filename) };
}

const S3_REQUIRED = ['s3Bucket', 's3AccessKeyId', 's3SecretAccessKey'] as const;

/** Where a key is set, as a start error names it: ` (atende.config.json "key" or ENV)`. */
function whereSet(key: string): string {
  const entry = configEntries[key as ConfigKey];
  return entry ? ` (${CONFIG_FILE} "${key}"${entry.env.length > 0 ? ` or ${entry.env.join('/')}` : ''})` : '';
}

export function loadConfig(options: LoadConfigOptions = {}): Config {
  const dir = path.resolve(options.dir ?? process.cwd());
  const env = options.env ?? process.env;
  const layered = {
    ...readConfigFile(dir),
    ...fromEnv(env),
    ...withoutUndefined(options.flags ?? {}),
  };
  const parsed = configSchema.safeParse(layered);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = String(issue.path[0] ?? '');
    throw new ConfigError(`config: ${key || 'value'} is invalid: ${issue.message}${whereSet(key)}`);
  }
  const values = parsed.data;
  const secrets =
    values.jwtSecret && values.jwtRefreshSecret ? {} : storedSecrets(dir, options.generateSecrets ?? true);
  const jwtSecret = values.jwtSecret ?? secrets.jwtSecret;
  const jwtRefreshSecret = values.jwtRefreshSecret ?? secrets.jwtRefreshSecret;
  if (!jwtSecret || !jwtRefreshSecret) {
    throw new ConfigError('config: jwtSecret and jwtRefreshSecret are missing; run `atende init` or set ATENDE_JWT_SECRET');
  }
  const s3Missing = values.storage === 's3' ? S3_REQUIRED.filter((key) => !values[key]) : [];
  if (s3Missing.length > 0) {
    throw new ConfigError(`config: storage "s3" needs ${s3Missing.map((key) => key + whereSet(key)).join(', ')}`);
  }
  // Without Redis a worker's live events never reach the sockets a web node holds.
  if (values.role !== 'all' && !values.redisUrl) {
    throw new ConfigError(`config: role "${values.role}" needs redisUrl${whereSet('redisUrl')}, so live events cross from the workers to the web nodes`);
  }
  return {
    ...values,
    dir,
    publicUrl: values.publicUrl ?? `http://localhost:${values.port}`,
    jwtSecret,
    jwtRefreshSecret,
    database: parseDatabaseUrl(values.databaseUrl, dir),
    mediaDir: path.resolve(dir, values.mediaDir),
    // An S3-compatible server seldom has a DNS name per bucket; AWS answers both.
    s3ForcePathStyle: values.s3ForcePathStyle ?? values.s3Endpoint !== undefined,
    webDir: path.resolve(dir, values.webDir),
    version: packageVersion,
    pluginEnv: pluginEnv(env),
  };
}
