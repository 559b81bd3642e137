import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scryptSync, randomBytes } from 'node:crypto';
import { SignJWT, decodeJwt } from 'jose';
import WebSocket from 'ws';
import { SUPER_EMAIL, SUPER_PASSWORD, startTestServer, type TestServer } from '../helpers/server.js';
import { Company } from '../../core/modules/companies/company.model.js';
import { User } from '../../core/modules/users/user.model.js';
import { LoginRateLimiter } from '../../core/modules/auth/login-rate-limiter.js';
import { MemoryAttemptStore } from '../../core/cluster/attempt-store.js';

let server: TestServer;
const PASSWORD = 'secret-123';

/** Failed logins count per client address: each test that fails on purpose comes from its own. */
let lastAddress = 0;
function address(): Record<string, string> {
  lastAddress += 1;
  return { 'X-Forwarded-For': `10.0.${Math.floor(lastAddress / 250)}.${(lastAddress % 250) + 1}` };
}

function login(email: string, password: string, headers: Record<string, string> = {}) {
  return server.call('POST', '/api/auth/login', { body: { email, password }, headers });
}

/** A company with its admin (the companies service's own tenant creation). */
async function tenant(name: string, options: { dueDate?: string | null; status?: boolean } = {}) {
  const email = `admin@${name.toLowerCase().replace(/\W/g, '')}.test`;
  const { company, admin } = await server.atende.container.services.companies.createTenant({
    name,
    email,
    password: PASSWORD,
    ...options,
  });
  return { company, admin, email };
}

async function addUser(companyId: number, email: string, extra: { financial?: boolean; super?: boolean } = {}) {
  return server.atende.container.services.users.create(companyId, { name: 'Agent', email, password: PASSWORD, profile: 'user', ...extra });
}

function isoDay(offsetDays: number): string {
  const day = new Date();
  day.setUTCDate(day.getUTCDate() + offsetDays);
  return day.toISOString().slice(0, 10);
}

function refreshCookie(res: { headers: Headers }): string {
  const header = res.headers.getSetCookie().find((c) => c.startsWith('jrt='));
  if (!header) throw new Error('no jrt cookie');
  return header;
}

/** A websocket with every frame it received, and its close. */
function openSocket(token: string) {
  const ws = new WebSocket(`${server.url.replace('http', 'ws')}/ws?token=${token}`);
  const frames: { channel: string; data: any }[] = []; // eslint-disable-line @typescript-eslint/no-explicit-any
  ws.on('message', (raw) => frames.push(JSON.parse(raw.toString())));
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  const opened = new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return { ws, frames, closed, opened };
}

beforeAll(async () => {
  server = await startTestServer({ trustProxy: 1 });
});
afterAll(async () => {
  await server?.close();
});

describe('POST /api/auth/login', () => {
  it('answers an access token, the session user with its company, and the refresh cookie', async () => {
    const { company, email } = await tenant('Login Shape');
    const res = await login(email, PASSWORD);
    expect(res.status).toBe(200);
    expect(res.body.token).toEqual(expect.any(String));
    expect(res.body.user).toEqual({
      id: expect.any(Number),
      name: 'Login Shape',
      email,
      profile: 'admin',
      super: false,
      financial: false,
      companyId: company.id,
      allTicket: 'disabled',
      whatsappId: null,
      online: false,
      queues: [],
      company: {
        id: company.id,
        name: 'Login Shape',
        dueDate: company.dueDate,
        status: true,
        planId: company.planId,
        recurrence: 'MENSAL',
        settings: expect.arrayContaining([{ key: 'timezone', value: 'America/Sao_Paulo' }]),
      },
    });
    const cookie = refreshCookie(res);
    expect(cookie).toMatch(/^jrt=[\w-]+\.[\w-]+\.[\w-]+;/);
    expect(cookie).toContain('Path=/api/auth');
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    expect(cookie).toContain(`Max-Age=${server.config.refreshTokenTtl}`);
    expect(cookie).not.toContain('Secure');
  });

  it('never answers password hashes or session state', async () => {
    const { email } = await tenant('No Secrets');
    const res = await login(email, PASSWORD);
    const text = JSON.stringify(res.body);
    for (const secret of ['passwordHash', 'tokenVersion', 'refreshTokenId', 'scrypt$', '$argon2']) expect(text).not.toContain(secret);
  });

  it('matches the e-mail regardless of case and spaces', async () => {
    const { email } = await tenant('Case Login');
    const res = await login(`  ${email.toUpperCase()} `, PASSWORD);
    expect(res.status).toBe(200);
  });

  it('the super admin created at first start can log in', async () => {
    const res = await login(SUPER_EMAIL, SUPER_PASSWORD);
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ email: SUPER_EMAIL, super: true, profile: 'admin', company: { dueDate: null } });
  });

  it.each([
    [{ password: PASSWORD }, 'email: E-mail inválido'],
    [{ email: 'not-an-email', password: PASSWORD }, 'email: E-mail inválido'],
    [{ email: 'someone@x.test' }, 'password: Dado obrigatório'],
    [{ email: 'someone@x.test', password: '' }, 'password: Dado obrigatório'],
    [{ email: 'someone@x.test', password: 'x'.repeat(51) }, 'password: Senha até 50 caracteres'],
  ])('validates the credentials: %j → "%s"', async (body, message) => {
    const res = await server.call('POST', '/api/auth/login', { body, headers: address() });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'ERR_VALIDATION', message });
  });

  it('a wrong password and an unknown e-mail get the same 401 ERR_INVALID_CREDENTIALS', async () => {
    const { email } = await tenant('Wrong Password');
    const wrong = await login(email, 'not-the-password', address());
    const unknown = await login('nobody@nowhere.test', PASSWORD, address());
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe('ERR_INVALID_CREDENTIALS');
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
    expect(wrong.headers.getSetCookie()).toEqual([]);
  });

  it('an inactive company keeps its users out with 403 ERR_COMPANY_INACTIVE', async () => {
    const { email } = await tenant('Inactive Co', { status: false });
    const res = await login(email, PASSWORD);
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('ERR_COMPANY_INACTIVE');
  });

  it('a super user of an inactive company still gets in', async () => {
    const { company } = await tenant('Inactive Super Co', { status: false });
    await addUser(company.id, 'super@inactive.test', { super: true });
    expect((await login('super@inactive.test', PASSWORD)).status).toBe(200);
  });

  it('a due date before today answers 402 ERR_SUBSCRIPTION_EXPIRED naming the date as dd/MM/yyyy', async () => {
    const { company, email } = await tenant('Expired Co');
    await Company.query(server.atende.container.db).findById(company.id).patch({ dueDate: '2024-03-05' });
    const res = await login(email, PASSWORD);
    expect(res.status).toBe(402);
    expect(res.body.error).toBe('ERR_SUBSCRIPTION_EXPIRED');
    expect(res.body.message).toContain('05/03/2024');
    expect(res.body.details).toEqual({ dueDate: '2024-03-05' });
  });

  it('a user with the financial flag logs in with an expired subscription', async () => {
    const { company } = await tenant('Expired Financial Co', { dueDate: isoDay(-10) });
    await addUser(company.id, 'finance@expired.test', { financial: true });
    const res = await login('finance@expired.test', PASSWORD);
    expect(res.status).toBe(200);
    expect(res.body.user.financial).toBe(true);
  });

  it('a subscription due tomorrow still lets everyone in', async () => {
    const { email } = await tenant('Due Tomorrow Co', { dueDate: isoDay(1) });
    expect((await login(email, PASSWORD)).status).toBe(200);
  });

  it('answers a Secure cookie when the public address is https', async () => {
    const https = await startTestServer({ publicUrl: 'https://atende.example.com' });
    try {
      const res = await https.call('POST', '/api/auth/login', { body: { email: SUPER_EMAIL, password: SUPER_PASSWORD } });
      expect(res.status).toBe(200);
      expect(res.headers.getSetCookie().find((c) => c.startsWith('jrt='))).toContain('Secure');
    } finally {
      await https.close();
    }
  });
});

describe('login rate limiting', () => {
  it('after 5 failed attempts for one e-mail, the 6th answers 429 with Retry-After, even with the right password', async () => {
    const { email } = await tenant('Limited Email');
    for (let i = 0; i < 5; i += 1) expect((await login(email, 'wrong-password', address())).status).toBe(401);
    const res = await login(email, PASSWORD, address());
    expect(res.status).toBe(429);
    expect(res.body.error).toBe('ERR_TOO_MANY_LOGIN_ATTEMPTS');
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(850);
    expect(retryAfter).toBeLessThanOrEqual(900);
  });

  it('a successful login clears the failures of that e-mail', async () => {
    const { email } = await tenant('Cleared Email');
    const from = address();
    for (let i = 0; i < 4; i += 1) await login(email, 'wrong-password', from);
    expect((await login(email, PASSWORD, from)).status).toBe(200);
    for (let i = 0; i < 4; i += 1) expect((await login(email, 'wrong-password', from)).status).toBe(401);
    expect((await login(email, PASSWORD, from)).status).toBe(200);
  });

  it('after 20 failed attempts from one address, that address answers 429 for any e-mail; others are not affected', async () => {
    const { email } = await tenant('Limited Address');
    const from = address();
    for (let i = 0; i < 20; i += 1) expect((await login(`probe${i}@nowhere.test`, 'wrong-password', from)).status).toBe(401);
    const blocked = await login(email, PASSWORD, from);
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await login(email, PASSWORD, address())).status).toBe(200);
  });

  it('with one trusted proxy, rotating the leftmost X-Forwarded-For entry does not escape the address limit', async () => {
    const { email } = await tenant('Spoofed Address');
    // The proxy appends the address it saw; what the client wrote before it is not trusted.
    const proxied = address()['X-Forwarded-For'];
    const statuses: number[] = [];
    for (let i = 0; i < 25; i += 1) {
      const headers = { 'X-Forwarded-For': `198.51.100.${i + 1}, ${proxied}` };
      statuses.push((await login(`rotating${i}@nowhere.test`, 'wrong-password', headers)).status);
    }
    expect(statuses).toEqual([...Array<number>(20).fill(401), ...Array<number>(5).fill(429)]);
    expect((await login(email, PASSWORD, { 'X-Forwarded-For': `198.51.100.99, ${proxied}` })).status).toBe(429);
  });

  it('the limits hold for a window and then reset', async () => {
    let now = 1_000_000;
    const limiter = new LoginRateLimiter(new MemoryAttemptStore(() => now), { maxPerEmail: 2, maxPerAddress: 3, windowMs: 60_000 });
    await limiter.record('a@x.test', '1.1.1.1');
    await limiter.record('a@x.test', '1.1.1.1');
    await expect(limiter.assertAllowed('a@x.test', '2.2.2.2')).rejects.toThrow(expect.objectContaining({ retryAfterSeconds: 60 }));
    await expect(limiter.assertAllowed('b@x.test', '1.1.1.1')).resolves.toBeUndefined();
    await limiter.record('b@x.test', '1.1.1.1');
    await expect(limiter.assertAllowed('c@x.test', '1.1.1.1')).rejects.toThrow(expect.objectContaining({ status: 429 }));
    now += 30_000;
    await expect(limiter.assertAllowed('a@x.test', '2.2.2.2')).rejects.toThrow(expect.objectContaining({ retryAfterSeconds: 30 }));
    now += 30_000;
    await expect(limiter.assertAllowed('a@x.test', '1.1.1.1')).resolves.toBeUndefined();
  });
});

describe('GET /api/auth/me and authentication', () => {
  it('answers the signed-in user', async () => {
    const { email } = await tenant('Me Co');
    const { token, body } = await server.login(email, PASSWORD);
    const res = await server.call('GET', '/api/auth/me', { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ user: body.user });
  });

  it.each([
    ['no token', undefined],
    ['a malformed token', 'not-a-jwt'],
    ['a token signed with another secret', 'eyJhbGciOiJIUzI1NiJ9.eyJpZCI6MSwiY29tcGFueUlkIjoxLCJ0b2tlblZlcnNpb24iOjF9.c2lnbmF0dXJl'],
  ])('%s is 401 ERR_SESSION_EXPIRED', async (_name, token) => {
    const res = await server.call('GET', '/api/auth/me', { token });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('ERR_SESSION_EXPIRED');
  });

  it.each([
    ['without exp', { companyId: true, tokenVersion: true, exp: false }],
    ['without companyId', { companyId: false, tokenVersion: true, exp: true }],
    ['without tokenVersion', { companyId: true, tokenVersion: false, exp: true }],
  ])('a token signed with the real secret but %s is 401 ERR_SESSION_EXPIRED', async (name, has) => {
    const { company, admin, email } = await tenant(`Forged ${name}`);
    await server.login(email, PASSWORD);
    const { tokenVersion } = await User.query(server.atende.container.db).findById(admin.id).throwIfNotFound();
    const jwt = new SignJWT({
      id: admin.id,
      profile: 'admin',
      ...(has.companyId && { companyId: company.id }),
      ...(has.tokenVersion && { tokenVersion }),
    }).setProtectedHeader({ alg: 'HS256' }).setIssuedAt();
    if (has.exp) jwt.setExpirationTime('10m');
    const token = await jwt.sign(new TextEncoder().encode(server.config.jwtSecret));
    const res = await server.call('GET', '/api/auth/me', { token });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('ERR_SESSION_EXPIRED');
  });

  it('a deleted user’s token stops working', async () => {
    const { company } = await tenant('Deleted User Co');
    const user = await addUser(company.id, 'gone@deleted.test');
    const { token } = await server.login('gone@deleted.test', PASSWORD);
    await User.query(server.atende.container.db).deleteById(user.id);
    const res = await server.call('GET', '/api/auth/me', { token });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('ERR_SESSION_EXPIRED');
  });
});

describe('POST /api/auth/refresh_token', () => {
  it('rotates the refresh token and answers a new access token with the user', async () => {
    const { email } = await tenant('Refresh Co');
    const first = await server.login(email, PASSWORD);
    const res = await server.call('POST', '/api/auth/refresh_token', { cookie: first.cookie });
    expect(res.status).toBe(200);
    expect(res.body.token).toEqual(expect.any(String));
    expect(res.body.user).toEqual(first.body.user);
    const rotated = refreshCookie(res).split(';')[0]!;
    expect(rotated).not.toBe(first.cookie);
    expect((await server.call('GET', '/api/auth/me', { token: res.body.token })).status).toBe(200);
    expect((await server.call('POST', '/api/auth/refresh_token', { cookie: rotated })).status).toBe(200);
  });

  it('two tabs refreshing with the same cookie at the same moment both keep the session', async () => {
    const { email } = await tenant('Two Tabs Co');
    const first = await server.login(email, PASSWORD);
    const tabA = await server.call('POST', '/api/auth/refresh_token', { cookie: first.cookie });
    const tabB = await server.call('POST', '/api/auth/refresh_token', { cookie: first.cookie });
    expect([tabA.status, tabB.status]).toEqual([200, 200]);
    // The browser keeps the last cookie it was given: that one goes on working.
    const latest = refreshCookie(tabB).split(';')[0]!;
    expect((await server.call('POST', '/api/auth/refresh_token', { cookie: latest })).status).toBe(200);
  });

  it('a replayed refresh token, rotated more than 10 s ago, is refused and ends the session', async () => {
    const { email } = await tenant('Replay Co');
    const first = await server.login(email, PASSWORD);
    const rotated = await server.call('POST', '/api/auth/refresh_token', { cookie: first.cookie });
    const aMinuteAgo = new Date(Date.now() - 60_000).toISOString();
    await server.atende.container.db('users').where({ email }).update({ refreshRotatedAt: aMinuteAgo });
    const replay = await server.call('POST', '/api/auth/refresh_token', { cookie: first.cookie });
    expect(replay.status).toBe(401);
    expect(replay.body.error).toBe('ERR_SESSION_EXPIRED');
    // The session is revoked: neither the newer refresh token nor the access tokens work now.
    expect((await server.call('POST', '/api/auth/refresh_token', { cookie: refreshCookie(rotated).split(';')[0] })).status).toBe(401);
    expect((await server.call('GET', '/api/auth/me', { token: rotated.body.token })).status).toBe(401);
    expect((await server.call('GET', '/api/auth/me', { token: first.token })).status).toBe(401);
  });

  it('without a cookie, or with a bad one, answers 401 ERR_SESSION_EXPIRED and clears the cookie', async () => {
    const none = await server.call('POST', '/api/auth/refresh_token');
    expect(none.status).toBe(401);
    expect(none.body.error).toBe('ERR_SESSION_EXPIRED');
    const bad = await server.call('POST', '/api/auth/refresh_token', { cookie: 'jrt=garbage' });
    expect(bad.status).toBe(401);
    expect(bad.body.error).toBe('ERR_SESSION_EXPIRED');
    expect(refreshCookie(bad)).toContain('Max-Age=0');
  });

  it('an access token is not a refresh token', async () => {
    const { email } = await tenant('Token Kinds Co');
    const { token } = await server.login(email, PASSWORD);
    expect((await server.call('POST', '/api/auth/refresh_token', { cookie: `jrt=${token}` })).status).toBe(401);
  });

  it('a company deactivated since login cannot refresh', async () => {
    const { company, email } = await tenant('Deactivated Later Co');
    const { cookie } = await server.login(email, PASSWORD);
    await Company.query(server.atende.container.db).findById(company.id).patch({ status: false });
    const res = await server.call('POST', '/api/auth/refresh_token', { cookie });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('ERR_COMPANY_INACTIVE');
  });
});

describe('DELETE /api/auth/logout', () => {
  it('ends the session: 204, the cookie cleared, the access and refresh tokens refused, the user offline', async () => {
    const { email, admin } = await tenant('Logout Co');
    const { token, cookie } = await server.login(email, PASSWORD);
    const res = await server.call('DELETE', '/api/auth/logout', { token });
    expect(res.status).toBe(204);
    expect(refreshCookie(res)).toContain('Max-Age=0');
    expect((await server.call('GET', '/api/auth/me', { token })).status).toBe(401);
    expect((await server.call('POST', '/api/auth/refresh_token', { cookie })).status).toBe(401);
    const row = await User.query(server.atende.container.db).findById(admin.id);
    expect(row).toMatchObject({ online: false, refreshTokenId: null });
  });

  it('closes the user’s sockets', async () => {
    const { email } = await tenant('Logout Socket Co');
    const { token } = await server.login(email, PASSWORD);
    const socket = openSocket(token);
    await socket.opened;
    await server.call('DELETE', '/api/auth/logout', { token });
    expect((await socket.closed).code).toBe(4001);
  });

  it('needs a session', async () => {
    const res = await server.call('DELETE', '/api/auth/logout');
    expect(res.status).toBe(401);
  });
});

describe('single session', () => {
  it('a second login ends the first session and tells its socket on company-{id}-auth', async () => {
    const { company, email, admin } = await tenant('Single Session Co');
    const first = await server.login(email, PASSWORD);
    const socket = openSocket(first.token);
    await socket.opened;

    const second = await server.login(email, PASSWORD);
    const closed = await socket.closed;
    expect(socket.frames).toContainEqual({
      channel: `company-${company.id}-auth`,
      data: { action: 'login', user: { id: admin.id } },
    });
    expect(closed.code).toBe(4001);

    const old = await server.call('GET', '/api/auth/me', { token: first.token });
    expect(old.status).toBe(401);
    expect(old.body.error).toBe('ERR_SESSION_EXPIRED');
    expect((await server.call('POST', '/api/auth/refresh_token', { cookie: first.cookie })).status).toBe(401);
    expect((await server.call('GET', '/api/auth/me', { token: second.token })).status).toBe(200);
  });

  it('the login notice reaches only that user’s sockets', async () => {
    const { company, email } = await tenant('Notice Scope Co');
    await addUser(company.id, 'colleague@notice.test');
    const colleague = await server.login('colleague@notice.test', PASSWORD);
    const socket = openSocket(colleague.token);
    await socket.opened;
    await server.login(email, PASSWORD);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(socket.frames.filter((f) => f.channel.endsWith('-auth'))).toEqual([]);
    socket.ws.close();
  });
});

describe('concurrent logins', () => {
  it('10 logins of one user at the same moment all answer 200; the last issued is the session, the others and the old socket are told', async () => {
    const { company, email, admin } = await tenant('Parallel Logins Co');
    const before = await server.login(email, PASSWORD);
    const socket = openSocket(before.token);
    await socket.opened;

    const answers = await Promise.all(Array.from({ length: 10 }, () => login(email, PASSWORD)));
    expect(answers.map((res) => res.status)).toEqual(Array<number>(10).fill(200));
    const versions = answers.map((res) => decodeJwt(res.body.token as string).tokenVersion as number);
    expect(new Set(versions).size).toBe(10);
    const last = answers[versions.indexOf(Math.max(...versions))]!;

    for (const res of answers) {
      const me = await server.call('GET', '/api/auth/me', { token: res.body.token });
      const refreshed = await server.call('POST', '/api/auth/refresh_token', { cookie: refreshCookie(res).split(';')[0] });
      const expected = res === last ? 200 : 401;
      expect([me.status, refreshed.status]).toEqual([expected, expected]);
    }
    expect((await socket.closed).code).toBe(4001);
    expect(socket.frames).toContainEqual({ channel: `company-${company.id}-auth`, data: { action: 'login', user: { id: admin.id } } });
  });
});

describe('password hashes', () => {
  it('passwords are stored as Argon2id with OWASP parameters (19 MiB, 2 passes, 1 lane)', async () => {
    const { admin } = await tenant('Argon Co');
    const { passwordHash } = await User.query(server.atende.container.db).findById(admin.id).throwIfNotFound();
    expect(passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[\w+/]+\$[\w+/]+$/);
  });

  it('an old scrypt hash still logs in and is rewritten as Argon2id; the password keeps working', async () => {
    const { admin, email } = await tenant('Scrypt Co');
    // The first format: scrypt N=2^15, r=8, p=1, 32-byte key, as scrypt$N$r$p$salt$hash (base64url).
    const salt = randomBytes(16);
    const key = scryptSync(PASSWORD, salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
    const scryptHash = ['scrypt', 2 ** 15, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
    await server.atende.container.db('users').where({ id: admin.id }).update({ passwordHash: scryptHash });

    expect((await login(email, 'wrong-password', address())).status).toBe(401);
    const stillOld = await User.query(server.atende.container.db).findById(admin.id).throwIfNotFound();
    expect(stillOld.passwordHash).toBe(scryptHash);

    expect((await login(email, PASSWORD)).status).toBe(200);
    const rewritten = await User.query(server.atende.container.db).findById(admin.id).throwIfNotFound();
    expect(rewritten.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect((await login(email, PASSWORD)).status).toBe(200);
  });
});
