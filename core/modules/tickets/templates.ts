import { wallTimestamp } from '../../time/zoned-time.js';

/**
 * The variables of automatic and quick-reply texts: {{firstName}}, {{name}}, {{ms}} (greeting by
 * the time of day), {{protocol}}, {{hora}}, and {{gretting}} as older texts spell {{ms}}. Times are
 * the company's wall clock. An unknown variable is left as written.
 */
export interface TemplateContext {
  /** The contact's name. */
  name: string;
  timeZone: string;
  now?: Date;
  /** The ticket id, appended to the protocol so two tickets of one second differ. */
  ticketId?: number;
}

export function greetingFor(hour: number): string {
  if (hour < 6) return 'Boa madrugada';
  if (hour < 12) return 'Bom dia';
  if (hour < 18) return 'Boa tarde';
  return 'Boa noite';
}

export function renderTemplate(text: string, ctx: TemplateContext): string {
  if (!text.includes('{{')) return text;
  const [year, month, day, hour, minute, second] = wallTimestamp(ctx.now ?? new Date(), ctx.timeZone).split(/[-T:]/) as string[];
  const greeting = greetingFor(Number(hour));
  const name = ctx.name.trim();
  const values: Record<string, string> = {
    name,
    firstName: name.split(/\s+/)[0] ?? '',
    ms: greeting,
    gretting: greeting,
    protocol: `${year}${month}${day}${hour}${minute}${second}${ctx.ticketId ?? ''}`,
    hora: `${hour}:${minute}:${second}`,
  };
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, key: string) => values[key] ?? whole);
}
