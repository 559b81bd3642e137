import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { signIn, screenshot, BrowserPool, settled } from './browser.js';
import { describeE2E } from './setup.js';
import { startTestServer, SUPER_EMAIL, SUPER_PASSWORD, type TestServer } from '../helpers/server.js';

const AGENT = { name: 'Agente Ajuda', email: 'agente@ajuda.test', password: 'agente-pass', profile: 'user' };
const JOURNEY_MS = 120_000;

let server: TestServer;
let superToken: string;
const browsers = new BrowserPool();

async function signedIn(options?: { width?: number; height?: number }): Promise<Page> {
  const opened = await browsers.open(options);
  await signIn(opened.page, server.url, AGENT.email, AGENT.password);
  return opened.page;
}

async function shootThemes(page: Page, name: string): Promise<void> {
  await settled(page);
  await screenshot(page, `${name}-light`);
  await page.getByTestId('theme-toggle').click();
  await settled(page);
  await screenshot(page, `${name}-dark`);
  await page.getByTestId('theme-toggle').click();
}

async function createHelp(body: Record<string, unknown>): Promise<{ id: number }> {
  const res = await server.call('POST', '/api/helps', { token: superToken, body });
  expect(res.status).toBe(201);
  return res.body;
}

describeE2E('helps gallery and to-do list', () => {
  beforeAll(async () => {
    server = await startTestServer();
    superToken = (await server.login(SUPER_EMAIL, SUPER_PASSWORD)).token;
    const planId = (await server.call('GET', '/api/plans/list')).body[0].id;
    const company = await server.call('POST', '/api/companies', {
      token: superToken,
      body: { name: 'Loja Ajuda', email: 'admin@ajuda.test', password: 'admin-pass', planId },
    });
    expect(company.status).toBe(201);
    const agent = await server.call('POST', '/api/users', { token: superToken, body: { ...AGENT, companyId: company.body.company.id } });
    expect(agent.status).toBe(201);
  });
  // One login per user at a time: a later login ends the earlier sessions (single session).
  afterEach(async () => {
    await browsers.closeAll();
  });
  afterAll(async () => {
    await server?.close();
  });

  it(
    'helps created through the API appear in the gallery live; a card plays its video and Escape closes it',
    async () => {
      const page = await signedIn();
      await page.getByRole('menuitem', { name: 'Ajuda' }).click();
      await page.getByText('Nenhum vídeo de ajuda disponível').waitFor();
      await expect.poll(() => page.getByTestId('helps-count').innerText()).toBe('(0)');
      await shootThemes(page, 'helps-empty');

      await createHelp({ title: 'Primeiros passos', video: 'dQw4w9WgXcQ', description: 'Como atender o primeiro cliente pelo WhatsApp.' });
      await createHelp({ title: 'Conectar o WhatsApp', video: 'https://www.youtube.com/watch?v=9bZkp7q19f0', link: 'https://atende.example/conexoes' });
      const removed = await createHelp({ title: 'Filas e chatbot', video: 'https://youtu.be/kJQP7kiw5Fk', description: 'Organize os atendimentos.' });
      await expect.poll(() => page.getByTestId('help-card').count()).toBe(3);
      await expect.poll(() => page.getByTestId('helps-count').innerText()).toBe('(3)');
      const titles = await page.getByTestId('help-card').allInnerTexts();
      expect(titles.map((text) => text.split('\n')[0])).toEqual(['Primeiros passos', 'Conectar o WhatsApp', 'Filas e chatbot']);
      await shootThemes(page, 'helps-gallery');

      await page.getByRole('button', { name: 'Assistir: Conectar o WhatsApp' }).click();
      const dialog = page.getByRole('dialog', { name: 'Conectar o WhatsApp' });
      await dialog.waitFor();
      expect(await dialog.locator('iframe').getAttribute('src')).toContain('https://www.youtube.com/embed/9bZkp7q19f0');
      expect(await dialog.getByRole('link', { name: /Abrir link/ }).getAttribute('href')).toBe('https://atende.example/conexoes');
      await settled(page);
      await screenshot(page, 'helps-video');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      await expect.poll(() => page.locator('iframe').count()).toBe(0);

      await server.call('DELETE', `/api/helps/${removed.id}`, { token: superToken });
      await expect.poll(() => page.getByTestId('help-card').count()).toBe(2);
      await expect.poll(() => page.getByTestId('helps-count').innerText()).toBe('(2)');
    },
    JOURNEY_MS,
  );

  it(
    'the to-do list adds, edits and deletes tasks, ignores blank text and keeps them over a reload',
    async () => {
      const page = await signedIn();
      await page.goto(`${server.url}/todolist`);
      await page.getByText('Nenhuma tarefa').waitFor();
      await shootThemes(page, 'todolist-empty');
      const input = page.getByRole('textbox', { name: 'Nova tarefa' });
      const items = page.getByTestId('todo-item');

      await input.fill('Retornar ligação do cliente');
      await input.press('Enter');
      await input.fill('Enviar proposta');
      await page.getByRole('button', { name: 'Adicionar' }).click();
      await expect.poll(() => items.count()).toBe(2);
      expect(await input.inputValue()).toBe('');
      expect(await items.first().innerText()).toMatch(/Criada em \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);

      await input.fill('   ');
      await input.press('Enter');
      await page.getByRole('button', { name: 'Adicionar' }).click();
      expect(await items.count()).toBe(2);

      await items.first().getByRole('button', { name: 'Editar tarefa' }).click();
      const edit = items.first().getByRole('textbox', { name: 'Texto da tarefa' });
      await edit.fill('Retornar ligação do cliente às 15h');
      await edit.press('Enter');
      await items.first().getByText('Retornar ligação do cliente às 15h').waitFor();
      expect(await items.first().innerText()).toMatch(/Editada em \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);

      // Blank text on edit keeps the task; Escape leaves it unchanged.
      await items.first().getByRole('button', { name: 'Editar tarefa' }).click();
      await edit.fill('  ');
      await edit.press('Enter');
      await items.first().getByText('Retornar ligação do cliente às 15h').waitFor();
      await items.nth(1).getByRole('button', { name: 'Editar tarefa' }).click();
      await items.nth(1).getByRole('textbox', { name: 'Texto da tarefa' }).fill('Descartado');
      await items.nth(1).getByRole('textbox', { name: 'Texto da tarefa' }).press('Escape');
      await items.nth(1).getByText('Enviar proposta').waitFor();

      await input.fill('Atualizar cadastro');
      await input.press('Enter');
      await items.nth(1).getByRole('button', { name: 'Excluir tarefa' }).click();
      await expect.poll(() => items.allInnerTexts()).toEqual([
        expect.stringContaining('Retornar ligação do cliente às 15h'),
        expect.stringContaining('Atualizar cadastro'),
      ]);
      await shootThemes(page, 'todolist');

      await page.reload();
      await expect.poll(() => items.count()).toBe(2);
      expect(await items.first().innerText()).toContain('Retornar ligação do cliente às 15h');
      const stored = JSON.parse((await page.evaluate(() => localStorage.getItem('todolist'))) ?? '[]');
      expect(stored.map((task: { text: string }) => task.text)).toEqual(['Retornar ligação do cliente às 15h', 'Atualizar cadastro']);
    },
    JOURNEY_MS,
  );

  it(
    'both pages fit a 375 px screen',
    async () => {
      const page = await signedIn({ width: 375, height: 812 });
      await page.goto(`${server.url}/helps`);
      await expect.poll(() => page.getByTestId('help-card').count()).toBe(2);
      await settled(page);
      await screenshot(page, 'helps-375');
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
      await page.getByTestId('help-card').first().click();
      await page.getByRole('dialog').locator('iframe').waitFor();
      await settled(page);
      await screenshot(page, 'helps-video-375');
      await page.keyboard.press('Escape');

      await page.goto(`${server.url}/todolist`);
      const input = page.getByRole('textbox', { name: 'Nova tarefa' });
      await input.fill('Uma tarefa com um texto bem comprido para ver como a linha quebra numa tela estreita de telefone');
      await input.press('Enter');
      await page.getByTestId('todo-item').first().waitFor();
      await settled(page);
      await screenshot(page, 'todolist-375');
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    },
    JOURNEY_MS,
  );
});
