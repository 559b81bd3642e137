import type { Dayjs } from 'dayjs';

/** Minutes as hours and minutes, the spec's display of times: 65.4 → '1h 05m', 12 → '0h 12m'. */
export function hoursAndMinutes(minutes: number): string {
  const total = Math.round(minutes);
  return `${Math.floor(total / 60)}h ${String(total % 60).padStart(2, '0')}m`;
}

/** The rating label's number (1 Insatisfeito, 2 Satisfeito, 3 Muito Satisfeito) of an average rate. */
export function ratingLevel(rating: number): 1 | 2 | 3 {
  return Math.min(3, Math.max(1, Math.round(rating))) as 1 | 2 | 3;
}

/** The API's day format. */
export const apiDay = (day: Dayjs) => day.format('YYYY-MM-DD');

export const DATE_FORMAT = 'DD/MM/YYYY';
