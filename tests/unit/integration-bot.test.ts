import { describe, expect, it } from 'vitest';
import type { PluginApp, Turn } from '../../core/plugin-sdk.js';
import { IntegrationBot } from '../../plugins/integrations/integration-bot.js';
import type { IntegrationsConfig } from '../../plugins/integrations/integrations-config.js';

/** A turn whose every action fails the test: a bot that passes must not look at the ticket at all. */
function turnOf(ticket: { isGroup: boolean }, message: { fromMe: boolean }): Turn {
  const touched = () => {
    throw new Error('the bot looked at a turn it must pass');
  };
  return { ticket, message, attached: touched, hold: touched, reply: touched, transfer: touched, close: touched } as unknown as Turn;
}

describe('the integrations bot (the simulator has no groups)', () => {
  const bot = new IntegrationBot({} as PluginApp<IntegrationsConfig>, {} as never, {} as never, {} as never);

  it('passes a group message without reading its ticket', async () => {
    await expect(bot.answer(turnOf({ isGroup: true }, { fromMe: false }))).resolves.toBe(false);
  });

  it('passes our own message coming back', async () => {
    await expect(bot.answer(turnOf({ isGroup: false }, { fromMe: true }))).resolves.toBe(false);
  });
});
