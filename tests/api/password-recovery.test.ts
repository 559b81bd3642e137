import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { startFakeSmtp, type FakeSmtp, type ReceivedMail } from '../helpers/fake-smtp.js';

const PASSWORD = 'old-secret';
const PUBLIC_URL = 'https://atende.example.com';

let server: TestServer;
let smtp: FakeSmtp;

/** Requests count per client address: each test comes from its own. */
let lastAddress = 0;
function address(): Record<string, string> {
  lastAddress += 1;
  return { 'X-Forwarded-For': `10.1.${Math.floor(lastAddress / 250)}.${(lastAddress % 250) + 1}` };
}

let tenants = 0;
/** A company with its admin, whose e-mail is unique to the test. */
async function user(): Promise<{ id: number; email: string }> {
  tenants += 1;
  const email = `admin${tenants}@recovery.test`;
  const { admin } = await server.atende.container.services.companies.createTenant({ name: `Recovery ${tenants}`, email, password: PASSWORD });
  return admin;
}

function requestReset(email: unknown, headers = address(), extra: Record<string, unknown> = {}) {
  return server.call('POST', '/api/users/reset/password', { body: { email, ...extra }, headers });
}

function changePassword(body: Record<string, unknown>, headers = address()) {
  return server.call('POST', '/api/users/reset/change-password', { body, headers });
}

function login(email: string, password: string) {
  return server.call('POST', '/api/auth/login', { body: { email, password }, headers: address() });
}

/** Waits for the one recovery e-mail to this address and answers it with its link's parts. */
async function mailTo(email: string): Promise<{ mail: ReceivedMail; link: string; linkEmail: string; token: string }> {
  await expect.poll(() => smtp.messages.filter((m) => m.to.includes(email)).length).toBe(1);
  const mail = smtp.messages.find((m) => m.to.includes(email))!;
  const match = /(https:\/\/\S+\/change-password\/([^/\s]+)\/([\w-]+))/.exec(mail.text);
  if (!match) throw new Error(`no recovery link in:\n${mail.text}`);
  return { mail, link: match[1]!, linkEmail: decodeURIComponent(match[2]!), token: match[3]! };
}

/** A user with a fresh recovery link. */
async function userWithLink() {
  const account = await user();
  expect((await requestReset(account.email)).status).toBe(200);
  return { ...account, ...(await mailTo(account.email)) };
}

beforeAll(async () => {
  smtp = await startFakeSmtp();
  server = await startTestServer({ trustProxy: 1, smtpUrl: smtp.url, mailFrom: 'Atende <no-reply@atende.test>', publicUrl: PUBLIC_URL });
});

afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

describe('POST /api/users/reset/password', () => {
  it('a known e-mail gets one message, in Portuguese by default, with a link to the change page at the public address', async () => {
    const account = await user();
    const res = await requestReset(account.email);
    expect(res.status).toBe(200);
    const { mail, link, linkEmail, token } = await mailTo(account.email);
    expect(mail.from).toBe('no-reply@atende.test');
    expect(mail.subject).toBe('Recuperação de senha');
    expect(mail.text).toContain('O link vale por uma hora');
    expect(link).toBe(`${PUBLIC_URL}/change-password/${encodeURIComponent(account.email)}/${token}`);
    expect(linkEmail).toBe(account.email);
    expect(mail.html).toContain(`href="${link}"`);
    expect(token.length).toBeGreaterThanOrEqual(43);
  });

  it('keeps only the hash of the token, valid for one hour', async () => {
    const { id, token } = await userWithLink();
    const rows = await server.atende.container.db('passwordResets').where({ userId: id });
    expect(rows).toHaveLength(1);
    expect(rows[0].tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(Date.parse(rows[0].expiresAt) - Date.parse(rows[0].createdAt)).toBe(60 * 60_000);
  });

  it('an unknown e-mail answers the same and sends nothing', async () => {
    const account = await user();
    const before = smtp.messages.length;
    const unknown = await requestReset('nobody@recovery.test');
    const known = await requestReset(account.email);
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual(known.body);
    // The known e-mail's message, asked for after the unknown one, is the only one that arrives.
    await mailTo(account.email);
    expect(smtp.messages.slice(before).map((m) => m.to)).toEqual([[account.email]]);
  });

  it('writes the e-mail in the language of the page that asked', async () => {
    const english = await user();
    const spanish = await user();
    await requestReset(english.email, address(), { language: 'en' });
    await requestReset(spanish.email, address(), { language: 'es' });
    expect((await mailTo(english.email)).mail.subject).toBe('Password recovery');
    expect((await mailTo(spanish.email)).mail.subject).toBe('Recuperación de contraseña');
  });

  it.each([
    [{}, 'email: Digite o e-mail'],
    [{ email: 'not-an-email' }, 'email: E-mail inválido'],
  ])('refuses %j with the spec message', async (body, message) => {
    const res = await server.call('POST', '/api/users/reset/password', { body, headers: address() });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'ERR_VALIDATION', message });
  });

  it('a fourth request for one e-mail within 15 minutes answers 429 with Retry-After, from any address', async () => {
    const account = await user();
    for (let i = 0; i < 3; i += 1) expect((await requestReset(account.email)).status).toBe(200);
    const res = await requestReset(account.email);
    expect(res.status).toBe(429);
    expect(res.body.error).toBe('ERR_TOO_MANY_RESET_REQUESTS');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(900);
    await expect.poll(() => smtp.messages.filter((m) => m.to.includes(account.email)).length).toBe(3);
  });

  it('after 10 requests from one address, that address answers 429 for any e-mail; others are not affected', async () => {
    const from = address();
    for (let i = 0; i < 10; i += 1) expect((await requestReset(`probe${i}@nowhere.test`, from)).status).toBe(200);
    const blocked = await requestReset('another@nowhere.test', from);
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await requestReset('another@nowhere.test')).status).toBe(200);
  });
});

describe('POST /api/users/reset/change-password', () => {
  it('the link sets the new password once: the old password and a second use fail', async () => {
    const { email, linkEmail, token } = await userWithLink();
    const res = await changePassword({ email: linkEmail, hash: token, password: 'new-secret' });
    expect(res.status).toBe(200);
    expect((await login(email, 'new-secret')).status).toBe(200);
    expect((await login(email, PASSWORD)).status).toBe(401);

    const again = await changePassword({ email: linkEmail, hash: token, password: 'third-secret' });
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('ERR_INVALID_RESET_LINK');
    expect((await login(email, 'new-secret')).status).toBe(200);
  });

  it("ends the user's sessions: the old access and refresh tokens stop working", async () => {
    const { email, token } = await userWithLink();
    const session = await server.login(email, PASSWORD);
    expect((await server.call('GET', '/api/auth/me', { token: session.token })).status).toBe(200);
    expect((await changePassword({ email, hash: token, password: 'fresh-secret' })).status).toBe(200);
    expect((await server.call('GET', '/api/auth/me', { token: session.token })).status).toBe(401);
    expect((await server.call('POST', '/api/auth/refresh_token', { cookie: session.cookie })).status).toBe(401);
  });

  it('a link past its hour fails and changes nothing', async () => {
    const { id, email, token } = await userWithLink();
    await server.atende.container.db('passwordResets').where({ userId: id }).update({ expiresAt: new Date(Date.now() - 1000).toISOString() });
    const res = await changePassword({ email, hash: token, password: 'late-secret' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_INVALID_RESET_LINK');
    expect((await login(email, PASSWORD)).status).toBe(200);
  });

  it('a link a minute before its hour ends still works', async () => {
    const { id, email, token } = await userWithLink();
    await server.atende.container.db('passwordResets').where({ userId: id }).update({ expiresAt: new Date(Date.now() + 60_000).toISOString() });
    expect((await changePassword({ email, hash: token, password: 'just-in-time' })).status).toBe(200);
  });

  it("one user's link does not open another account, and a made-up token opens none", async () => {
    const { token } = await userWithLink();
    const other = await user();
    for (const body of [
      { email: other.email, hash: token, password: 'stolen-secret' },
      { email: other.email, hash: 'a'.repeat(43), password: 'stolen-secret' },
      { email: 'nobody@recovery.test', hash: token, password: 'stolen-secret' },
    ]) {
      const res = await changePassword(body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('ERR_INVALID_RESET_LINK');
    }
    expect((await login(other.email, PASSWORD)).status).toBe(200);
  });

  it.each([
    [{ password: 'abcd' }, 'password: Too Short!'],
    [{ password: 'x'.repeat(51) }, 'password: Too Long!'],
    [{ password: undefined }, 'password: Required'],
    [{ hash: '' }, 'hash: Digite a hash'],
    [{ hash: undefined }, 'hash: Digite a hash'],
    [{ email: 'broken' }, 'email: E-mail inválido'],
  ])('refuses %j with the password rules and the spec messages, keeping the link', async (change, message) => {
    const { email, token } = await userWithLink();
    const res = await changePassword({ email, hash: token, password: 'valid-secret', ...change });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'ERR_VALIDATION', message });
    expect((await changePassword({ email, hash: token, password: 'valid-secret' })).status).toBe(200);
  });

  it('bad links count against the address: the 11th answers 429', async () => {
    const from = address();
    for (let i = 0; i < 10; i += 1) {
      expect((await changePassword({ email: `guess${i}@nowhere.test`, hash: `guess-${i}`, password: 'guess-secret' }, from)).status).toBe(400);
    }
    const res = await changePassword({ email: 'guess@nowhere.test', hash: 'guess', password: 'guess-secret' }, from);
    expect(res.status).toBe(429);
    expect(res.body.error).toBe('ERR_TOO_MANY_RESET_REQUESTS');
  });
});

describe('the mail service (app.services.mail)', () => {
  it('sends text and HTML from the configured sender, with a subject in any language', async () => {
    await server.atende.container.services.mail.send({
      to: 'billing@recovery.test',
      subject: 'Fatura de março: R$ 99,90 — vence amanhã',
      text: 'Olá! Sua fatura está disponível.',
      html: '<p>Olá! Sua fatura está disponível.</p>',
    });
    const mail = smtp.messages.find((m) => m.to.includes('billing@recovery.test'))!;
    expect(mail).toMatchObject({
      from: 'no-reply@atende.test',
      subject: 'Fatura de março: R$ 99,90 — vence amanhã',
      text: 'Olá! Sua fatura está disponível.',
      html: '<p>Olá! Sua fatura está disponível.</p>',
    });
    expect(mail.raw).toMatch(/^From: Atende <no-reply@atende\.test>/m);
  });

  it("rejects with the SMTP server's refusal", async () => {
    smtp.refuse = true;
    try {
      await expect(
        server.atende.container.services.mail.send({ to: 'refused@recovery.test', subject: 'x', text: 'x' }),
      ).rejects.toThrow(/550/);
    } finally {
      smtp.refuse = false;
    }
  });

  it('a recovery e-mail the SMTP server refuses still answers the request as usual', async () => {
    const account = await user();
    const refusedBefore = smtp.refused;
    smtp.refuse = true;
    try {
      const res = await requestReset(account.email);
      expect(res.status).toBe(200);
      await expect.poll(() => smtp.refused).toBe(refusedBefore + 1);
    } finally {
      smtp.refuse = false;
    }
  });
});

describe('without an SMTP server', () => {
  it('the request says e-mail is not configured (503) and nothing is stored', async () => {
    const bare = await startTestServer();
    try {
      const res = await bare.call('POST', '/api/users/reset/password', { body: { email: 'super@atende.test' } });
      expect(res.status).toBe(503);
      expect(res.body.error).toBe('ERR_MAIL_NOT_CONFIGURED');
      expect(res.body.message).toMatch(/not configured/);
      expect(Number((await bare.atende.container.db('passwordResets').count({ n: '*' }))[0]!.n)).toBe(0);
    } finally {
      await bare.close();
    }
  });
});
