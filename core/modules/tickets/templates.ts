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

function wallClock(now: Date, timeZone: string): Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', string> {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(now);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '00';
  return { year: part('year'), month: part('month'), day: part('day'), hour: part('hour'), minute: part('minute'), second: part('second') };
}

export function greetingFor(hour: number): string {
  if (hour < 6) return 'Boa madrugada';
  if (hour < 12) return 'Bom dia';
  if (hour < 18) return 'Boa tarde';
  return 'Boa noite';
}

export function renderTemplate(text: string, ctx: TemplateContext): string {
  if (!text.includes('{{')) return text;
  const clock = wallClock(ctx.now ?? new Date(), ctx.timeZone);
  const greeting = greetingFor(Number(clock.hour));
  const name = ctx.name.trim();
  const values: Record<string, string> = {
    name,
    firstName: name.split(/\s+/)[0] ?? '',
    ms: greeting,
    gretting: greeting,
    protocol: `${clock.year}${clock.month}${clock.day}${clock.hour}${clock.minute}${clock.second}${ctx.ticketId ?? ''}`,
    hora: `${clock.hour}:${clock.minute}:${clock.second}`,
  };
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, key: string) => values[key] ?? whole);
}
