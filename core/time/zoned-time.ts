/** One formatter per zone: building one costs far more than formatting with it. */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Milliseconds the zone's wall clock is ahead of UTC at `instant`. */
function offsetAt(instant: number, timeZone: string): number {
  const parts = formatterOf(timeZone).formatToParts(new Date(instant));
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
  return wall - Math.floor(instant / 1000) * 1000;
}

/** The UTC instant (ISO) at which day `YYYY-MM-DD` starts in `timeZone`. */
export function zonedDayStart(day: string, timeZone: string): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const midnightUtc = Date.UTC(y, m - 1, d);
  const guess = midnightUtc - offsetAt(midnightUtc, timeZone);
  // Across a daylight-saving change the offset at the guess is the one that holds.
  return new Date(midnightUtc - offsetAt(guess, timeZone)).toISOString();
}

/** The day after `YYYY-MM-DD`. */
export function nextDay(day: string): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
}

/** The UTC instant (ISO) of the wall-clock time `YYYY-MM-DDTHH:mm[:ss]` in `timeZone`. */
export function zonedInstant(local: string, timeZone: string): string {
  const [day = '', time = '00:00'] = local.split('T');
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const [hh = 0, mm = 0, ss = 0] = time.split(':').map(Number);
  const wallUtc = Date.UTC(y, m - 1, d, hh, mm, ss);
  const guess = wallUtc - offsetAt(wallUtc, timeZone);
  return new Date(wallUtc - offsetAt(guess, timeZone)).toISOString();
}

/** The wall-clock `YYYY-MM-DDTHH:mm:ss` of `instant` in `timeZone`. */
export function wallTimestamp(instant: string | Date, timeZone: string): string {
  const at = new Date(instant).getTime();
  return new Date(Math.floor(at / 1000) * 1000 + offsetAt(at, timeZone)).toISOString().slice(0, 19);
}

/** The wall-clock `YYYY-MM-DDTHH:mm` of `instant` in `timeZone`. */
export function wallClock(instant: string | Date, timeZone: string): string {
  return wallTimestamp(instant, timeZone).slice(0, 16);
}

/** The day `months` after `YYYY-MM-DD`, on the month's last day when it is shorter (31 Jan + 1 = 28 or 29 Feb). */
export function addMonths(day: string, months: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const lastDay = new Date(Date.UTC(y, m - 1 + months + 1, 0)).getUTCDate();
  return new Date(Date.UTC(y, m - 1 + months, Math.min(d, lastDay))).toISOString().slice(0, 10);
}

/** Today's date `YYYY-MM-DD` on the wall clock of `timeZone`. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  return wallTimestamp(now, timeZone).slice(0, 10);
}
