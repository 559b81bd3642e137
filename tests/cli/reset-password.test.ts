import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, cleanEnv as env, freePort, serving } from '../helpers/cli.js';

// The real binary (bin, running dist/) in a fresh installation, beside a real `serve`.
let work: string;
let url: string;
const running: ResultPromise[] = [];

function atende(args: string[]) {
  // stdin is a pipe, not a terminal: the CLI must never prompt.
  return execa('node', [bin, ...args], { cwd: work, env, extendEnv: false, reject: false, timeout: 120_000 });
}

function lines(text: string): string[] {
  return text.split('\n').filter((line) => line.trim() !== '');
}

async function login(email: string, password: string): Promise<{ status: number; cookie: string }> {
  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  return { status: res.status, cookie: (res.headers.get('set-cookie') ?? '').split(';')[0]! };
}

function refresh(cookie: string): Promise<number> {
  return fetch(`${url}/api/auth/refresh_token`, { method: 'POST', headers: { Cookie: cookie } }).then((res) => res.status);
}

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'atende-reset-'));
  expect((await atende(['init', '--yes', '--admin-email', 'a@b.co', '--admin-password', 'secret123', '--dir', 'main'])).exitCode).toBe(0);
  const tenant = await atende(['add-tenant', '--dir', 'main', '--name', 'Acme', '--email', 'admin@acme.co', '--password', 'acme-secret']);
  expect(tenant.exitCode).toBe(0);
  const sub = execa('node', [bin, 'serve', '--dir', 'main', '--port', String(await freePort())], {
    cwd: work,
    env: { ...env, ATENDE_LOG_LEVEL: 'warn' },
    extendEnv: false,
    reject: false,
  });
  running.push(sub);
  url = (await serving(sub)).url;
});

afterAll(() => {
  for (const sub of running) sub.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

describe('atende reset-password', () => {
  it('is listed with its flags', async () => {
    const result = await atende(['reset-password', '--help']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('Usage: atende reset-password [options] <email>');
    for (const flag of ['--dir', '--password', '--yes']) expect(result.stdout).toContain(flag);
  });

  it.each([
    [['admin@acme.co'], 'atende: --password is required'],
    [['not-an-email', '--password', 'whatever'], 'atende: <email> "not-an-email" is not a valid e-mail address'],
    [['admin@acme.co', '--password', 'abc'], 'atende: --password must have at least 5 characters'],
    [[], "atende: missing required argument 'email'"],
  ])('without a terminal, %j is one line and exit 2', async (args, message) => {
    const result = await atende(['reset-password', '--dir', 'main', ...args]);
    expect(result.exitCode).toBe(2);
    expect(lines(result.stderr)).toEqual([message]);
  });

  it('an e-mail without a user is one line and exit 1', async () => {
    const result = await atende(['reset-password', '--dir', 'main', 'nobody@acme.co', '--password', 'new-secret']);
    expect(result.exitCode).toBe(1);
    expect(lines(result.stderr)).toEqual(['atende: no user has the e-mail nobody@acme.co']);
  });

  it('beside the running server, sets the password and ends the sessions: the old refresh token fails', async () => {
    const before = await login('admin@acme.co', 'acme-secret');
    expect(before.status).toBe(200);
    expect(await refresh(before.cookie)).toBe(200);
    const session = await login('admin@acme.co', 'acme-secret');

    const result = await atende(['reset-password', '--dir', 'main', 'Admin@Acme.co', '--password', 'brand-new']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('password of admin@acme.co changed; their sessions ended');
    expect(result.stdout).not.toContain('brand-new');

    expect(await refresh(session.cookie)).toBe(401);
    expect((await login('admin@acme.co', 'acme-secret')).status).toBe(401);
    expect((await login('admin@acme.co', 'brand-new')).status).toBe(200);
  });
});
