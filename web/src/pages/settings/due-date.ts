import dayjs, { type Dayjs } from 'dayjs';
import type { GlobalToken } from 'antd';
import { RECURRENCE_MONTHS, type Recurrence } from '../../api/types';

/** The recurrences the company form offers (the spec offers only MENSAL). */
export const OFFERED_RECURRENCES: Recurrence[] = ['MENSAL'];

/** The due date one period later; an unknown recurrence counts as monthly. */
export function nextDueDate(date: Dayjs, recurrence: string): Dayjs {
  const months = RECURRENCE_MONTHS[recurrence as Recurrence] ?? RECURRENCE_MONTHS.MENSAL;
  return date.add(months, 'month');
}

/** Whole days from today to the due date (negative once past), or null without a due date. */
export function daysToDue(dueDate: string | null, today: Dayjs = dayjs()): number | null {
  if (!dueDate) return null;
  const due = dayjs(dueDate);
  return due.isValid() ? due.startOf('day').diff(today.startOf('day'), 'day') : null;
}

export type DueTone = 'soon' | 'near' | 'late';

/** The spec's colouring: exactly 5 days yellow, -3 to 4 orange, exactly -4 red, else none. */
export function dueTone(days: number | null): DueTone | null {
  if (days === 5) return 'soon';
  if (days !== null && days >= -3 && days <= 4) return 'near';
  if (days === -4) return 'late';
  return null;
}

/** Row backgrounds from the theme's palettes: light tints in light mode, deep ones in dark mode. */
export function dueToneColor(tone: DueTone, token: GlobalToken): string {
  return { soon: token.yellow3, near: token.orange3, late: token.red3 }[tone];
}
