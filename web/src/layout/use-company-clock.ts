import { useMemo } from 'react';
import type { Dayjs } from 'dayjs';
import { useAuth } from '../auth/auth-provider';
import { companyTimezone, DATE_TIME_FORMAT, differsFromBrowser, wallClockOf, zoned, zonedText } from './dates';

export interface CompanyClock {
  /** The company's timezone (IANA name). */
  zone: string;
  /** The browser's clock reads otherwise: times say which zone they are in. */
  differs: boolean;
  /** An instant written on the company's clock, dd/MM/yyyy HH:mm by default. */
  format(instant: string | Date | null | undefined, format?: string): string;
  /** An instant (now by default) with the company's wall-clock fields. */
  at(instant?: string | Date): Dayjs;
  /** The company's wall clock as a browser-local Dayjs, for pickers and calendars. */
  wallClock(instant?: string | Date): Dayjs;
  /** The hover text of a shown time: the full date and time and the zone's name. */
  title(instant: string | Date): string;
}

/** The company's clock, the one every time of the app is shown and computed on. */
export function useCompanyClock(): CompanyClock {
  const { user } = useAuth();
  const zone = companyTimezone(user);
  return useMemo(
    () => ({
      zone,
      differs: differsFromBrowser(zone),
      format: (instant, format) => zonedText(instant, zone, format),
      at: (instant = new Date()) => zoned(instant, zone),
      wallClock: (instant = new Date()) => wallClockOf(instant, zone),
      title: (instant) => `${zonedText(instant, zone, DATE_TIME_FORMAT)} (${zone})`,
    }),
    [zone],
  );
}
