import { describe, expect, it } from 'vitest';
import type { Campaign } from '../../plugins/campaigns/campaigns/campaign.model.js';
import { estimateEnd } from '../../plugins/campaigns/dispatch/campaign-report.js';
import { fileMessageId, fillVariables, pickVariant, plannedWait } from '../../plugins/campaigns/dispatch/message-plan.js';
import type { CampaignSettings } from '../../plugins/campaigns/settings/campaign-settings.service.js';

const campaign = (fields: Partial<Campaign>) => ({ message1: null, message2: null, message3: null, message4: null, message5: null, ...fields }) as Campaign;

describe('campaign message plan', () => {
  it('picks only among the non-empty messages, with the confirmation of the same tab', () => {
    const c = campaign({ message1: ' ', message2: 'dois', confirmationMessage2: 'conf dois', message4: 'quatro', confirmationMessage4: null });
    expect(pickVariant(c, () => 0)).toEqual({ message: 'dois', confirmation: 'conf dois' });
    expect(pickVariant(c, () => 1)).toEqual({ message: 'quatro', confirmation: null });
    expect(pickVariant(campaign({}), () => 0)).toEqual({ message: '', confirmation: null });
  });

  it('fills the built-in and custom variables in any case, leaving unknown ones', () => {
    const text = fillVariables('{Nome} {numero} {email} {CUPOM} {outra}', { name: 'Ana', number: '5511999990000', email: 'a@b.c' }, [{ key: 'cupom', value: 'X10' }]);
    expect(text).toBe('Ana 5511999990000 a@b.c X10 {outra}');
  });

  it('waits nothing first, the longer pause after every N messages, otherwise up to the interval (ms)', () => {
    const pacing = { messageInterval: 20, longerIntervalAfter: 20, greaterInterval: 60 };
    expect(plannedWait(0, pacing, () => 0.99)).toBe(0);
    expect(plannedWait(20, pacing, () => 0.5)).toBe(60_000);
    expect(plannedWait(40, pacing, () => 0.5)).toBe(60_000);
    expect(plannedWait(21, pacing, () => 0)).toBe(0);
    expect(plannedWait(21, pacing, () => 0.999999)).toBe(20_000);
    expect(plannedWait(5, { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 60 }, () => 0.7)).toBe(0);
  });

  it('derives stable, distinct file ids from the message id', () => {
    expect(fileMessageId('3EB0AAA', 0)).toBe(fileMessageId('3EB0AAA', 0));
    expect(fileMessageId('3EB0AAA', 0)).not.toBe(fileMessageId('3EB0AAA', 1));
    expect(fileMessageId('3EB0AAA', 0)).toMatch(/^3EB0[0-9A-F]{18}$/);
  });

  it('estimates the end from the mean pause, pushing what the daily cap leaves to the next days', () => {
    const settings = { messageInterval: 20, longerIntervalAfter: 20, greaterInterval: 60, dailyCap: 1000 } as CampaignSettings;
    const now = new Date('2026-11-26T12:00:00Z');
    const running = campaign({ status: 'EM_ANDAMENTO' });
    // 10 s + 60/20 s = 13 s a message.
    expect(estimateEnd(running, 100, settings, 'America/Sao_Paulo', now)).toBe('2026-11-26T12:21:40.000Z');
    // 1,500 messages: 1,000 today's worth, 500 from the next midnight in São Paulo (03:00 UTC).
    expect(estimateEnd(running, 1500, settings, 'America/Sao_Paulo', now)).toBe(new Date(Date.parse('2026-11-27T03:00:00Z') + 500 * 13_000).toISOString());
    expect(estimateEnd(campaign({ status: 'CANCELADA' }), 100, settings, 'America/Sao_Paulo', now)).toBeNull();
  });
});
