import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, cleanEnv as env, freePort, root, serving } from '../helpers/cli.js';
import { SqliteDriver } from '../../core/db/sqlite-driver.js';

const version = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;

let work: string;
const running: ResultPromise[] = [];

function atende(args: string[]) {
  // stdin is a pipe, not a terminal: the CLI must never prompt.
  return execa('node', [bin, ...args], { cwd: work, env, extendEnv: false, reject: false, timeout: 180_000 });
}

function spawnServe(args: string[]): ResultPromise<{ reject: false }> {
  const sub = execa('node', [bin, 'serve', ...args], { cwd: work, env, extendEnv: false, reject: false });
  running.push(sub);
  return sub;
}


async function stopWith(sub: ResultPromise, signal: NodeJS.Signals): Promise<number | undefined> {
  sub.kill(signal);
  const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('serve did not exit within 10 s')), 10_000));
  const result = await Promise.race([sub, timeout]);
  return result.exitCode;
}


function login(url: string, email: string, password: string): Promise<Response> {
  return fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
}

function lines(text: string): string[] {
  return text.split('\n').filter((line) => line.trim() !== '');
}

function mode(file: string): number {
  return statSync(file).mode & 0o777;
}

function countRows(dir: string, table: string): number {
  const db = new SqliteDriver(path.join(work, dir, 'data/atende.sqlite'), { readonly: true });
  try {
    return (db.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), 'atende-cli-'));
});

afterAll(() => {
  for (const sub of running) sub.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

describe('atende --version and --help', () => {
  it('prints the package version', async () => {
    const result = await atende(['--version']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout.trim()).toBe(version);
  });

  it('lists every command', async () => {
    const result = await atende(['--help']);
    expect(result.exitCode).toBe(0);
    for (const command of ['init', 'migrate', 'serve', 'add-tenant']) expect(result.stdout).toContain(command);
  });

  it.each([
    ['init', ['--dir', '--db', '--database-url', '--port', '--public-url', '--admin-email', '--admin-password', '--yes']],
    ['migrate', ['--dir', '--rollback', '--status']],
    ['serve', ['--dir', '--port', '--demo', '--role']],
    ['add-tenant', ['--dir', '--name', '--email', '--password', '--plan', '--yes']],
  ])('documents the flags of %s', async (command, flags) => {
    const result = await atende([command, '--help']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(`Usage: atende ${command}`);
    for (const flag of flags) expect(result.stdout).toContain(flag);
  });

  it('an unknown command or option is one line and a usage exit code', async () => {
    for (const args of [['bogus'], ['init', '--bogus']]) {
      const result = await atende(args);
      expect(result.exitCode).toBe(2);
      expect(lines(result.stderr)).toHaveLength(1);
      expect(result.stderr).toMatch(/^atende: unknown/);
    }
  });
});

describe('atende init', () => {
  it('writes the config with its secrets, creates the database and migrates it', async () => {
    const result = await atende(['init', '--yes', '--admin-email', 'a@b.co', '--admin-password', 'secret123', '--dir', 'main']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^migrated 20261122000000_core_init$/m);
    expect(result.stdout).toContain('super admin created: a@b.co');
    expect(result.stdout).not.toContain('secret123');

    const file = path.join(work, 'main/atende.config.json');
    expect(mode(file)).toBe(0o600);
    const config = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(config).toMatchObject({ port: 8080, databaseUrl: 'data/atende.sqlite', adminEmail: 'a@b.co' });
    expect(config.jwtSecret).toEqual(expect.any(String));
    expect(config.jwtRefreshSecret).toEqual(expect.any(String));
    expect(config.jwtSecret).not.toBe(config.jwtRefreshSecret);
    expect(config).not.toHaveProperty('adminPassword');
    expect(countRows('main', 'users')).toBe(1);
  });

  it('refuses to overwrite an existing config', async () => {
    const file = path.join(work, 'main/atende.config.json');
    const before = readFileSync(file, 'utf8');
    const result = await atende(['init', '--yes', '--dir', 'main']);
    expect(result.exitCode).toBe(1);
    expect(lines(result.stderr)).toEqual([`atende: ${file} already exists; init does not overwrite it (delete it to start over)`]);
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('with --yes and no password generates one, prints it once and keeps it in a 0600 file', async () => {
    const result = await atende(['init', '--yes', '--dir', 'generated']);
    expect(result.exitCode).toBe(0);
    const password = /password: (\S+)/.exec(result.stdout)?.[1];
    expect(password).toBeDefined();
    expect(result.stdout).toContain('admin@atende.local');
    const file = path.join(work, 'generated/data/initial-admin.txt');
    expect(mode(file)).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toContain(`password: ${password}`);
  });

  it.each([
    [['--admin-email', 'not-an-email'], 'atende: --admin-email "not-an-email" is not a valid e-mail address'],
    [['--port', '80808'], 'atende: --port must be a port number from 1 to 65535 (got "80808")'],
    [['--admin-password', 'abcd'], 'atende: --admin-password must have at least 5 characters'],
    [['--db', 'postgres'], 'atende: --db postgres needs --database-url postgres://user:password@host:5432/database'],
  ])('without a terminal, bad input %j is one line and nothing is written', async (args, message) => {
    const result = await atende(['init', ...args, '--dir', 'rejected']);
    expect(result.exitCode).toBe(2);
    expect(lines(result.stderr)).toEqual([message]);
    expect(existsSync(path.join(work, 'rejected'))).toBe(false);
  });
});

describe('atende migrate', () => {
  it('--status lists the migrations done and pending', async () => {
    const result = await atende(['migrate', '--status', '--dir', 'main']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^done +20261122000000_core_init$/m);
    expect(result.stdout).toMatch(/^\d+ done, 0 pending$/m);
  });

  it('reports an up-to-date schema', async () => {
    const result = await atende(['migrate', '--dir', 'main']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('database schema already up to date');
  });

  it('rolls the last batch back and migrates it again, one line per migration', async () => {
    await atende(['init', '--yes', '--admin-password', 'secret123', '--dir', 'rollback']);
    const status = await atende(['migrate', '--status', '--dir', 'rollback']);
    const last = [...status.stdout.matchAll(/^done +(\S+)$/gm)].at(-1)![1]!;
    const back = await atende(['migrate', '--rollback', '--dir', 'rollback']);
    expect(back.exitCode).toBe(0);
    expect(back.stdout).toMatch(new RegExp(`^rolled back ${last}$`, 'm'));
    expect((await atende(['migrate', '--status', '--dir', 'rollback'])).stdout).toMatch(new RegExp(`^pending +${last}$`, 'm'));
    const again = await atende(['migrate', '--dir', 'rollback']);
    expect(again.exitCode).toBe(0);
    expect(again.stdout).toMatch(new RegExp(`^migrated ${last}$`, 'm'));
  });

  it('without a config says to run init', async () => {
    const result = await atende(['migrate', '--dir', 'nowhere']);
    expect(result.exitCode).toBe(1);
    expect(lines(result.stderr)).toHaveLength(1);
    expect(result.stderr).toContain('atende init');
  });
});

describe('atende add-tenant', () => {
  it('without a terminal, a missing --name is one line and exit 2', async () => {
    const result = await atende(['add-tenant', '--dir', 'main', '--email', 'x@acme.co', '--password', 'acme-secret']);
    expect(result.exitCode).toBe(2);
    expect(lines(result.stderr)).toEqual(['atende: --name is required']);
  });

  it('creates the company and its admin and prints both', async () => {
    const result = await atende(['add-tenant', '--dir', 'main', '--name', 'Acme', '--email', 'admin@acme.co', '--password', 'acme-secret']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^company \d+ created: Acme$/m);
    expect(result.stdout).toMatch(/^admin: admin@acme\.co$/m);
    expect(result.stdout).not.toContain('acme-secret');
  });

  it('a duplicate e-mail is one line, exit 1, and creates nothing', async () => {
    const companies = countRows('main', 'companies');
    const result = await atende(['add-tenant', '--dir', 'main', '--name', 'Other', '--email', 'admin@acme.co', '--password', 'other-secret']);
    expect(result.exitCode).toBe(1);
    expect(lines(result.stderr)).toHaveLength(1);
    expect(result.stderr).toMatch(/^atende: .*e-mail/i);
    expect(countRows('main', 'companies')).toBe(companies);
  });
});

describe('atende serve', () => {
  it('serves the init admin and the tenant admin, and stops cleanly on SIGTERM', async () => {
    const sub = spawnServe(['--dir', 'main', '--port', String(await freePort())]);
    const url = (await serving(sub)).url;
    expect((await (await fetch(`${url}/api/version`)).json()) as unknown).toEqual({ version });
    expect((await login(url, 'a@b.co', 'secret123')).status).toBe(200);
    expect((await login(url, 'admin@acme.co', 'acme-secret')).status).toBe(200);
    expect(await stopWith(sub, 'SIGTERM')).toBe(0);
  });

  it('stopped the instant it prints its serving line, still shuts down gracefully', async () => {
    // The signal races the line's reader: before the listener came first, a third of these died of SIGTERM.
    for (let attempt = 0; attempt < 5; attempt++) {
      const sub = spawnServe(['--dir', 'main', '--port', String(await freePort())]);
      await serving(sub);
      expect(await stopWith(sub, 'SIGTERM')).toBe(0);
      expect(lines((await sub).stdout).at(-1)).toBe('stopped');
    }
  });

  it('in a fresh folder creates the super admin with a generated password shown once', async () => {
    const sub = spawnServe(['--dir', 'fresh', '--port', String(await freePort())]);
    const url = (await serving(sub)).url;
    const file = path.join(work, 'fresh/data/initial-admin.txt');
    expect(mode(file)).toBe(0o600);
    const password = /^password: (\S+)$/m.exec(readFileSync(file, 'utf8'))?.[1];
    expect(password).toBeDefined();
    expect((await login(url, 'admin@atende.local', password!)).status).toBe(200);
    expect(await stopWith(sub, 'SIGINT')).toBe(0);
    const { stdout } = await sub;
    expect(stdout.match(/password: \S+/g)).toEqual([`password: ${password}`]);
  });

  it('keeps the generated admin password in its 0600 file before the first request is answered', async () => {
    const port = await freePort();
    const sub = spawnServe(['--dir', 'early', '--port', String(port)]);
    const file = path.join(work, 'early/data/initial-admin.txt');
    // Asks as early as it can: the first answer must already find the file.
    let answered = false;
    while (!answered) {
      answered = await fetch(`http://127.0.0.1:${port}/api/version`).then((res) => res.ok, () => false);
      if (!answered) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(existsSync(file)).toBe(true);
    expect(mode(file)).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toMatch(/^password: \S+$/m);
    expect(await stopWith(sub, 'SIGTERM')).toBe(0);
  });

  it('on a port in use is one line and a non-zero exit', async () => {
    const blocker: Server = createServer();
    const port = await new Promise<number>((resolve) => blocker.listen(0, () => resolve((blocker.address() as { port: number }).port)));
    try {
      const result = await atende(['serve', '--dir', 'main', '--port', String(port)]);
      expect(result.exitCode).not.toBe(0);
      expect(lines(result.stderr)).toEqual([`atende: port ${port} is already in use; choose another with --port or PORT`]);
    } finally {
      blocker.close();
    }
  });

  it.each([
    [['--role', 'both'], 2, 'atende: --role must be one of all, web, worker (got "both")'],
    [['--role', 'web'], 1, 'atende: config: role "web" needs redisUrl (atende.config.json "redisUrl" or REDIS_URL/ATENDE_REDIS_URL), so live events cross from the workers to the web nodes'],
  ])('refuses %j in one line before touching the database', async (args, exitCode, message) => {
    const result = await atende(['serve', '--dir', 'roles', '--port', String(await freePort()), ...args]);
    expect(result.exitCode).toBe(exitCode);
    expect(lines(result.stderr)).toEqual([message]);
    expect(existsSync(path.join(work, 'roles/data/atende.sqlite'))).toBe(false);
  });
});

describe('atende add-tenant beside a running server (SQLite)', () => {
  let attempts = 0;
  it('succeeds every time while the server takes API writes', async () => {
    // A folder of its own for each attempt: a retry starts from a new installation.
    const dir = `beside-${(attempts += 1)}`;
    expect((await atende(['init', '--yes', '--admin-email', 'a@b.co', '--admin-password', 'secret123', '--dir', dir])).exitCode).toBe(0);
    const sub = spawnServe(['--dir', dir, '--port', String(await freePort())]);
    const url = (await serving(sub)).url;
    const token = ((await (await login(url, 'a@b.co', 'secret123')).json()) as { token: string }).token;
    const plan = ((await (await fetch(`${url}/api/plans/list`, { headers: { Authorization: `Bearer ${token}` } })).json()) as { id: number }[])[0]!;

    // Contacts and companies written through the API for as long as the commands run.
    let writing = true;
    const statuses: number[] = [];
    const writer = (async () => {
      for (let n = 0; writing; n += 1) {
        const [path, body] =
          n % 2 === 0
            ? ['/api/contacts', { name: `Cliente ${n}`, number: `55119${String(n).padStart(8, '0')}` }]
            : ['/api/companies', { name: `Api ${n}`, email: `api${n}@api.co`, planId: plan.id, password: 'api-secret' }];
        const res = await fetch(`${url}${path}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
          body: JSON.stringify(body),
        });
        statuses.push(res.status);
      }
    })();

    const results = [];
    for (let n = 1; n <= 5; n += 1) {
      results.push(await atende(['add-tenant', '--dir', dir, '--name', `Beside ${n}`, '--email', `beside${n}@acme.co`, '--password', 'beside-secret']));
    }
    writing = false;
    await writer;

    expect(results.map((result) => [result.exitCode, result.stderr])).toEqual(Array.from({ length: 5 }, () => [0, '']));
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.filter((status) => status !== 201)).toEqual([]);
    for (let n = 1; n <= 5; n += 1) expect((await login(url, `beside${n}@acme.co`, 'beside-secret')).status).toBe(200);
    expect(await stopWith(sub, 'SIGTERM')).toBe(0);
  }, 600_000); // a ceiling for five commands beside a server on a loaded 2-core machine
});
