import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, bin, cleanEnv as env, freePort, printedUrl, serving, SIMULATOR_LISTENING, until } from '../helpers/cli.js';

// The real binary (bin, running dist/) against a real `serve`.
let work: string;
const running: ResultPromise[] = [];

function atende(args: string[], extraEnv: Record<string, string> = {}) {
  return execa('node', [bin, ...args], { cwd: work, env: { ...env, ...extraEnv }, extendEnv: false, reject: false, timeout: 30_000 });
}

/** Starts `serve` in `dir` and resolves with its output so far once it serves. */
function serve(dir: string, args: string[], extraEnv: Record<string, string> = {}): Promise<{ url: string; output: string }> {
  const sub = execa('node', [bin, 'serve', '--dir', dir, ...args], {
    cwd: work,
    env: { ...env, ATENDE_LOG_LEVEL: 'warn', ...extraEnv },
    extendEnv: false,
    reject: false,
  });
  running.push(sub);
  return serving(sub);
}



function lines(text: string): string[] {
  return text.split('\n').filter((line) => line.trim() !== '');
}

beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), 'atende-simulate-'));
});
afterAll(() => {
  for (const sub of running) sub.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

describe('atende simulate against atende serve --demo', () => {
  let url: string;
  let output: string;
  let superPassword: string;
  let connection: number;

  /** A fresh super admin token: every `simulate` signs in as that user, which ends its earlier sessions. */
  async function superToken(): Promise<string> {
    return (await api(url, 'POST', '/api/auth/login', undefined, { email: 'admin@atende.local', password: superPassword })).body.token;
  }

  beforeAll(async () => {
    const port = await freePort();
    // init writes the port into the config (simulate's default address) and keeps the generated password in data/initial-admin.txt.
    const init = await atende(['init', '--yes', '--dir', 'main', '--port', String(port)]);
    expect(init.exitCode).toBe(0);
    ({ url, output } = await serve('main', ['--demo']));
    superPassword = /^password: (\S+)$/m.exec(readFileSync(path.join(work, 'main/data/initial-admin.txt'), 'utf8'))![1]!;
    const token = await superToken();
    const created = await api(url, 'POST', '/api/whatsapp', token, { name: 'CLI phone', provider: 'simulator' });
    expect(created.status).toBe(201);
    connection = created.body.id;
    await until(async () => ((await api(url, 'GET', `/api/whatsapp/${connection}`, token)).body.status === 'qrcode' ? true : undefined));
  });

  it('serve --demo prints the demo users once and keeps them in a 0600 file', () => {
    expect(output).toContain('Demo company "Demonstração" created');
    expect(output).toContain('Write as a customer: npx atende simulate message --connection 1 --from ');
    for (const email of ['admin@demonstracao.local', 'ana@demonstracao.local', 'bruno@demonstracao.local']) expect(output).toMatch(new RegExp(`${email} +password: \\S+`));
    const file = path.join(work, 'main/data/demo-credentials.txt');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toContain('ana@demonstracao.local password: ');
  });

  it('scan connects the connection (config port, initial-admin.txt password by default)', async () => {
    const result = await atende(['simulate', 'scan', '--dir', 'main', '--connection', String(connection)]);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^connection ${connection} connected as 55119\\d{8}$`, 'm'));
    const row = (await api(url, 'GET', `/api/whatsapp/${connection}`, await superToken())).body;
    expect(row).toMatchObject({ status: 'CONNECTED', qrcode: '' });
  });

  it('message writes as a customer; --id repeats a message (a replay)', async () => {
    for (let i = 0; i < 2; i++) {
      const result = await atende(['simulate', 'message', '--dir', 'main', '--connection', String(connection), '--from', '551187650001', '--name', 'Carla', '--body', 'Oi!', '--id', 'CLI-1']);
      expect(result.exitCode).toBe(0);
      expect(lines(result.stdout)).toEqual([`message CLI-1 from 5511987650001 delivered to connection ${connection}`]);
    }
  });

  it('the demo connection takes messages too, with explicit --url, --email and --password', async () => {
    const own = (await api(url, 'GET', '/api/whatsapp', await superToken())).body;
    expect(own.map((w: { name: string }) => w.name)).toEqual(['CLI phone']); // the demo connection is another company's
    const result = await atende([
      'simulate', 'message', '--url', url, '--email', 'admin@atende.local', '--password', superPassword,
      '--connection', '1', '--from', '5521999990000', '--name', 'João', '--body', 'Bom dia',
    ]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('delivered to connection 1');
  });

  it('disconnect unlinks it; a message then fails with one line and exit 1', async () => {
    const result = await atende(['simulate', 'disconnect', '--dir', 'main', '--connection', String(connection)]);
    expect(result.exitCode).toBe(0);
    expect(lines(result.stdout)).toEqual([`connection ${connection} disconnected`]);
    const token = await superToken();
    await until(async () => ((await api(url, 'GET', `/api/whatsapp/${connection}`, token)).body.status === 'DISCONNECTED' ? true : undefined));

    const refused = await atende(['simulate', 'message', '--dir', 'main', '--connection', String(connection), '--from', '5511987650001', '--name', 'Carla', '--body', 'Oi?']);
    expect(refused.exitCode).toBe(1);
    expect(lines(refused.stderr)).toEqual(['atende: the server refused (400 ERR_WAPP_NOT_INITIALIZED: Session not initialized)']);
  });

  it.each([
    [['scan', '--connection', 'abc'], 2, 'atende: --connection must be a connection id (got "abc")'],
    [['scan'], 2, "atende: required option '--connection <id>' not specified"],
    [['message', '--connection', '1', '--name', 'X', '--body', 'Y'], 2, "atende: required option '--from <number>' not specified"],
    [['message', '--connection', '1', '--from', '12', '--name', 'X', '--body', 'Y'], 2, 'atende: --from must be a phone number of 8 to 15 digits (got "12")'],
    [['scan', '--connection', '999'], 1, 'atende: the server refused (404 ERR_NO_WAPP_FOUND: No simulated connection with this ID)'],
    [['scan', '--connection', '1', '--password', 'wrong-password'], 1, 'atende: login failed (401 ERR_INVALID_CREDENTIALS: Invalid e-mail or password)'],
  ])('simulate %j: exit %i, one line', async (args, code, message) => {
    const result = await atende(['simulate', ...args, '--dir', 'main']);
    expect(result.exitCode).toBe(code);
    expect(lines(result.stderr)).toEqual([message]);
  });

  it('a server that is not there is one clear line', async () => {
    const port = await freePort();
    const result = await atende(['simulate', 'scan', '--connection', '1', '--url', `http://127.0.0.1:${port}`, '--email', 'a@b.co', '--password', 'whatever']);
    expect(result.exitCode).toBe(1);
    expect(lines(result.stderr)).toEqual([`atende: cannot reach http://127.0.0.1:${port}; is \`atende serve\` running there?`]);
  });
});

describe('atende simulate against a server without the simulator', () => {
  it('says how to turn it on', async () => {
    const { url } = await serve('plain', ['--port', String(await freePort())], { ATENDE_ADMIN_PASSWORD: 'plain-secret' });
    const result = await atende(['simulate', 'scan', '--dir', 'plain', '--url', url, '--connection', '1'], { ATENDE_ADMIN_PASSWORD: 'plain-secret' });
    expect(result.exitCode).toBe(1);
    expect(lines(result.stderr)).toEqual([`atende: the server at ${url} has the simulator off; start it with --demo or ATENDE_SIMULATOR=1`]);
  });
});

describe('atende simulate server', () => {
  it.each([
    [['--port', 'abc'], 'atende: --port must be a port number from 1 to 65535 (got "abc")'],
    [['--port', '70000'], 'atende: --port must be a port number from 1 to 65535 (got "70000")'],
    [[], "atende: required option '--port <n>' not specified"],
  ])('simulate server %j: exit 2, one line', async (args, message) => {
    const result = await atende(['simulate', 'server', ...args]);
    expect(result.exitCode).toBe(2);
    expect(lines(result.stderr)).toEqual([message]);
  });

  it.each(['SIGINT', 'SIGTERM'] as const)('prints one line when listening and stops cleanly on %s', async (signal) => {
    const port = await freePort();
    const sub = execa('node', [bin, 'simulate', 'server', '--port', String(port)], { cwd: work, env, extendEnv: false, reject: false });
    running.push(sub);
    const { url } = await printedUrl(sub, SIMULATOR_LISTENING);
    expect(url).toBe(`http://127.0.0.1:${port}`);
    const taken = await atende(['simulate', 'server', '--port', String(port)]);
    expect(taken.exitCode).toBe(1);
    expect(lines(taken.stderr)).toEqual([`atende: port ${port} is already in use; choose another with --port`]);
    sub.kill(signal);
    const result = await sub;
    expect(result.exitCode).toBe(0);
    expect(lines(String(result.stdout))).toEqual([`simulated WhatsApp at ${url} (Ctrl-C stops)`, 'stopped']);
    expect(result.stderr).toBe('');
  });
});
