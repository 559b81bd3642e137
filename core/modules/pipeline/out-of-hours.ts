import type { ScheduleEntry } from '../companies/company.model.js';

/** The out-of-hours reply goes to one ticket at most once in this time. */
export const OUT_OF_HOURS_REPEAT_MS = 10 * 60_000;

/** The weekday (monday..sunday) and time (HH:mm) on the company's wall clock. */
export function wallTime(now: Date, timeZone: string): { weekday: string; time: string } {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'long', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(now);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return { weekday: part('weekday').toLowerCase(), time: `${part('hour')}:${part('minute')}` };
}

/**
 * Whether `now` falls in the working hours (company's or a queue's), read on the company's wall
 * clock. A day's window is [start, end); equal start and end ('00:00'-'00:00') closes the whole
 * day; an end before the start opens the day's two ends (22:00-06:00: until 06:00 and from 22:00). A day missing from the list is
 * closed; an empty list means no hours were set, so it is always open.
 */
export function isWithinSchedule(schedules: ScheduleEntry[], now: Date, timeZone: string): boolean {
  if (schedules.length === 0) return true;
  const { weekday, time } = wallTime(now, timeZone);
  const today = schedules.find((s) => s.weekdayEn === weekday);
  if (!today || today.startTime === today.endTime) return false;
  if (today.startTime < today.endTime) return time >= today.startTime && time < today.endTime;
  return time >= today.startTime || time < today.endTime;
}
