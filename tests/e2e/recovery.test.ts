import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { BrowserPool, loginThroughUi, shot } from './browser.js';
import { describeE2E } from './setup.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { startFakeSmtp, type FakeSmtp } from '../helpers/fake-smtp.js';
import { freePort } from '../helpers/cli.js';

/** Password recovery as a user lives it: login page → e-mail → link → new password → login. */
const ADMIN = { email: 'admin@esqueci.test', password: 'old-password' };
/** Each e-mail may ask three times in 15 minutes: the English test asks for another user's. */
const AGENT = { email: 'agente@esqueci.test', password: 'agent-password' };

let server: TestServer;
let smtp: FakeSmtp;
const browsers = new BrowserPool();

/** The link of the one recovery e-mail to `email` (the server's public address is its own). */
async function recoveryLink(email: string, count = 1): Promise<string> {
  await expect.poll(() => smtp.messages.filter((m) => m.to.includes(email)).length, { timeout: 10_000 }).toBe(count);
  const mail = smtp.messages.filter((m) => m.to.includes(email)).at(-1)!;
  const link = /http:\/\/\S+\/change-password\/\S+/.exec(mail.text)?.[0];
  if (!link) throw new Error(`no link in:\n${mail.text}`);
  return link;
}

describeE2E('password recovery', () => {
  beforeAll(async () => {
    smtp = await startFakeSmtp();
    // The e-mail's link points at the public address: the server's own, known before it starts.
    const port = await freePort();
    server = await startTestServer({ port, publicUrl: `http://127.0.0.1:${port}`, smtpUrl: smtp.url });
    const { company } = await server.atende.container.services.companies.createTenant({ name: 'Loja Esqueci', ...ADMIN });
    await server.atende.container.services.users.create(company.id, { name: 'Agente', ...AGENT, profile: 'user' });
  });

  afterEach(async () => {
    await browsers.closeAll();
  });

  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  it('from the login page: ask for a link, open it from the e-mail, set a new password and log in with it', async () => {
    const page = await browsers.page();
    await page.goto(`${server.url}/login`);
    await page.getByRole('link', { name: 'Esqueceu a senha?' }).click();
    await page.waitForURL(/\/recovery$/);
    await page.getByRole('button', { name: 'Enviar' }).click();
    await page.getByText('Digite o e-mail').waitFor();
    await page.getByLabel('E-mail').fill('sem-arroba');
    await page.getByText('E-mail inválido').waitFor();
    await shot(page, 'recovery-validation');
    await page.getByLabel('E-mail').fill(ADMIN.email);
    await shot(page, 'recovery');
    await page.getByRole('button', { name: 'Enviar' }).click();
    await page.getByText('Verifique sua caixa de mensagem.').waitFor();
    await page.waitForURL(/\/login$/);

    const link = await recoveryLink(ADMIN.email);
    expect(smtp.messages.at(-1)!.subject).toBe('Recuperação de senha');
    await page.goto(link);
    await page.getByText(`Escolha a nova senha da conta ${ADMIN.email}.`).waitFor();
    expect(await page.getByLabel('E-mail').inputValue()).toBe(ADMIN.email);
    await page.getByLabel('Nova senha', { exact: true }).fill('abc');
    await page.getByText('Muito curto!').waitFor();
    await page.getByLabel('Nova senha', { exact: true }).fill('new-password');
    await page.getByLabel('Confirme a nova senha').fill('other-password');
    await page.getByText('As senhas não conferem').waitFor();
    await page.getByLabel('Confirme a nova senha').fill('new-password');
    await shot(page, 'change-password');
    await page.getByRole('button', { name: 'Alterar senha' }).click();
    await page.getByText('Senha alterada com sucesso.').waitFor();
    await page.waitForURL(/\/login$/);

    await loginThroughUi(page, server.url, ADMIN.email, 'new-password');
    expect(await page.getByTestId('greeting').innerText()).toContain('Loja Esqueci');
  });

  it('a link already used says so and offers a new one', async () => {
    const page = await browsers.page();
    await page.goto(`${server.url}/recovery`);
    await page.getByLabel('E-mail').fill(ADMIN.email);
    await page.getByRole('button', { name: 'Enviar' }).click();
    await page.waitForURL(/\/login$/);
    const link = await recoveryLink(ADMIN.email, 2);
    await server.call('POST', '/api/users/reset/change-password', {
      body: { email: ADMIN.email, hash: link.split('/').at(-1), password: 'used-elsewhere' },
    });

    await page.goto(link);
    await page.getByLabel('Nova senha', { exact: true }).fill('too-late-now');
    await page.getByLabel('Confirme a nova senha').fill('too-late-now');
    await page.getByRole('button', { name: 'Alterar senha' }).click();
    await page.getByText('Dados não encontrados. Este link de recuperação expirou ou já foi usado; peça um novo.').waitFor();
    await page.getByRole('link', { name: 'Pedir um novo link' }).click();
    await page.waitForURL(/\/recovery$/);
  });

  it('in English, the page and the e-mail are in English', async () => {
    const page = await browsers.page();
    await page.goto(`${server.url}/login`);
    await page.evaluate(() => localStorage.setItem('language', 'en'));
    await page.goto(`${server.url}/recovery`);
    await page.getByText('Recover password').waitFor();
    await page.getByLabel('E-mail').fill(AGENT.email);
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText('Check your inbox.').waitFor();
    await recoveryLink(AGENT.email);
    expect(smtp.messages.at(-1)!.subject).toBe('Password recovery');
  });

  it('without an SMTP server the page says e-mail is not set up and to ask the administrator', async () => {
    const bare = await startTestServer();
    try {
      const page = await browsers.page();
      await page.goto(`${bare.url}/recovery`);
      await page.getByLabel('E-mail').fill('alguem@esqueci.test');
      await page.getByRole('button', { name: 'Enviar' }).click();
      const alert = page.getByTestId('mail-off');
      await alert.waitFor();
      expect(await alert.innerText()).toContain('Peça ao administrador para redefinir a sua senha.');
      expect(await page.getByRole('button', { name: 'Enviar' }).isDisabled()).toBe(true);
      await shot(page, 'recovery-mail-off');
    } finally {
      await bare.close();
    }
  });
});
