import { useEffect, useMemo } from 'react';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { queryKeys, useApiQuery, useAuth, useQueryClient, zonedDay } from 'atende/web';
import { scheduleChannel, type ScheduleFrame, type ScheduleRecord } from './schedule-record';

export interface ScheduleCalendar {
  /** The schedules of each company-local day (YYYY-MM-DD), by send time. */
  byDay: Map<string, ScheduleRecord[]>;
  loading: boolean;
}

type CalendarAnswer = { schedules: ScheduleRecord[] };

const CALENDAR_PATH = '/schedules/calendar';
const bySendAt = (a: ScheduleRecord, b: ScheduleRecord) => a.sendAt.localeCompare(b.sendAt) || a.id - b.id;

/**
 * The schedules of the days a month panel shows, kept live. The panel shows six weeks around the
 * month; a week either side covers them whatever day the locale starts the week on (52 days at
 * most, within the API's 62).
 */
export function useScheduleCalendar(month: Dayjs, tz: string): ScheduleCalendar {
  const { t } = useTranslation('schedules');
  const { user, realtime } = useAuth();
  const queryClient = useQueryClient();
  const from = month.startOf('month').subtract(7, 'day').format('YYYY-MM-DD');
  const to = month.endOf('month').add(14, 'day').format('YYYY-MM-DD');
  const calendar = useApiQuery<CalendarAnswer>(CALENDAR_PATH, { query: { from, to }, keepPrevious: true, failureText: () => t('loadFailed') });

  useEffect(() => {
    if (!user) return;
    return realtime.on(scheduleChannel(user.companyId), (data) => {
      const frame = data as ScheduleFrame;
      queryClient.setQueryData<CalendarAnswer>(queryKeys.records(CALENDAR_PATH, { from, to }), (answer) => {
        if (!answer) return answer;
        if (frame.action === 'delete') return { schedules: answer.schedules.filter((s) => s.id !== frame.scheduleId) };
        const day = zonedDay(frame.schedule.sendAt, tz);
        const others = answer.schedules.filter((s) => s.id !== frame.schedule.id);
        return { schedules: day >= from && day <= to ? [...others, frame.schedule] : others };
      });
    });
  }, [user, realtime, queryClient, tz, from, to]);

  const byDay = useMemo(() => {
    const days = new Map<string, ScheduleRecord[]>();
    for (const schedule of [...(calendar.data?.schedules ?? [])].sort(bySendAt)) {
      const day = zonedDay(schedule.sendAt, tz);
      days.set(day, [...(days.get(day) ?? []), schedule]);
    }
    return days;
  }, [calendar.data, tz]);

  return { byDay, loading: calendar.isFetching };
}
