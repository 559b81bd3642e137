import { createHash, randomInt } from 'node:crypto';
import type { CampaignVariable } from '../settings/campaign-settings.contract.js';
import type { Campaign } from '../campaigns/campaign.model.js';

const VARIANTS = [1, 2, 3, 4, 5] as const;

/** What a contact's message is made of. */
export interface Recipient {
  name: string;
  number: string;
  email: string;
}

/** The campaign's chosen message and its confirmation request, one of the non-empty message1..5 at random. */
export function pickVariant(campaign: Campaign, pick: (n: number) => number = randomInt): { message: string; confirmation: string | null } {
  const filled = VARIANTS.filter((n) => campaign[`message${n}`]?.trim());
  if (filled.length === 0) return { message: '', confirmation: null };
  const n = filled[pick(filled.length)]!;
  const confirmation = campaign[`confirmationMessage${n}`]?.trim() || null;
  return { message: campaign[`message${n}`]!, confirmation };
}

/** {nome}, {numero}, {email} and the company's own {key}s filled in (keys case-insensitive); unknown braces stay. */
export function fillVariables(text: string, recipient: Recipient, custom: readonly CampaignVariable[]): string {
  const values = new Map<string, string>([
    ['nome', recipient.name],
    ['numero', recipient.number],
    ['email', recipient.email],
  ]);
  for (const variable of custom) values.set(variable.key.toLowerCase(), variable.value);
  return text.replace(/\{([\p{L}\p{N}_]+)\}/gu, (whole, key: string) => values.get(key.toLowerCase()) ?? whole);
}

/** The pacing of the campaign settings, in seconds (spec §9). */
export interface Pacing {
  messageInterval: number;
  longerIntervalAfter: number;
  greaterInterval: number;
}

/**
 * The pause before a campaign's `sent`-th message (0-based count of those already sent): none
 * before the first, greaterInterval s after every longerIntervalAfter messages, otherwise a random
 * 0..messageInterval s. In milliseconds.
 */
export function plannedWait(sent: number, pacing: Pacing, random: () => number = Math.random): number {
  if (sent === 0) return 0;
  const { messageInterval, longerIntervalAfter, greaterInterval } = pacing;
  if (longerIntervalAfter > 0 && greaterInterval > 0 && sent % longerIntervalAfter === 0) return greaterInterval * 1000;
  return Math.floor(random() * (messageInterval * 1000 + 1));
}

/** The id of a file sent before a contact's message: derived from the message's id, so a resend reuses it. */
export function fileMessageId(messageId: string, index: number): string {
  return `3EB0${createHash('sha256').update(`${messageId}:${index}`).digest('hex').slice(0, 18).toUpperCase()}`;
}
