import type { QuickMessageView } from '../../../api/types';
import { zoned } from '../../../layout/dates';

/** Text rules of the composer, kept pure so the shell only wires them to the input. */

/** Spec §9: the quick-reply picker shows a reply's message cut at this many characters. */
export const PICKER_MESSAGE_CHARS = 35;

/** The variables an agent may write; the same names the server renders in automatic texts. */
export const VARIABLES = ['firstName', 'name', 'ms', 'protocol', 'hora'] as const;
export type Variable = (typeof VARIABLES)[number];

/** A quick reply as GET /api/quick-messages/list answers it. */
export type QuickReply = QuickMessageView;

/** `/shortcode - message`, the message cut at 35 characters with '...'. */
export function pickerLabel(reply: QuickReply): string {
  const message = reply.message.length > PICKER_MESSAGE_CHARS ? `${reply.message.slice(0, PICKER_MESSAGE_CHARS)}...` : reply.message;
  return `/${reply.shortcode} - ${message}`;
}

/** While the input holds only '/' and a shortcode being typed, that shortcode prefix; else null. */
export function shortcodeQuery(text: string): string | null {
  const match = /^\/(\S*)$/.exec(text);
  return match ? match[1]!.toLowerCase() : null;
}

export function matchingReplies(replies: QuickReply[], query: string): QuickReply[] {
  return replies.filter((reply) => reply.shortcode.toLowerCase().startsWith(query));
}

export interface VariableContext {
  /** The contact's name. */
  name: string;
  ticketId: number;
  now: Date;
  /** The company's timezone: the times are its wall clock, as in the server's texts. */
  timeZone: string;
  /** The greeting of an hour of the day, in the agent's language. */
  greeting(hour: number): string;
}

/**
 * The agent's text with {{firstName}}, {{name}}, {{ms}} ({{gretting}} in older texts),
 * {{protocol}} and {{hora}} filled in from the company's clock, as the server fills automatic
 * texts (core/modules/tickets/templates.ts), whatever the browser's zone. An unknown variable is
 * left as written.
 */
export function renderVariables(text: string, ctx: VariableContext): string {
  if (!text.includes('{{')) return text;
  const wall = zoned(ctx.now, ctx.timeZone);
  const name = ctx.name.trim();
  const greeting = ctx.greeting(wall.hour());
  const values: Record<string, string> = {
    name,
    firstName: name.split(/\s+/)[0] ?? '',
    ms: greeting,
    gretting: greeting,
    protocol: `${wall.format('YYYYMMDDHHmmss')}${ctx.ticketId}`,
    hora: wall.format('HH:mm:ss'),
  };
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, key: string) => values[key] ?? whole);
}

/** With the sign option on, the agent's name in bold and a line break before the text. */
export function signBody(body: string, userName: string, sign: boolean): string {
  return sign && body ? `*${userName}*:\n${body}` : body;
}

/** `text` with `insert` put over the selection [start, end), and where the caret goes after it. */
export function insertAt(text: string, start: number, end: number, insert: string): { text: string; caret: number } {
  return { text: text.slice(0, start) + insert + text.slice(end), caret: start + insert.length };
}

export type GreetingKey = 'dawn' | 'morning' | 'afternoon' | 'evening';

/** Which greeting {{ms}} uses at an hour of the day (the server's boundaries). */
export function greetingOf(hour: number): GreetingKey {
  if (hour < 6) return 'dawn';
  if (hour < 12) return 'morning';
  if (hour < 18) return 'afternoon';
  return 'evening';
}
