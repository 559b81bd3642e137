import { useEffect, useMemo, useState } from 'react';
import { App } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { api, useAuth, zonedDay } from 'atende/web';
import { scheduleChannel, type ScheduleFrame, type ScheduleRecord } from './schedule-record';

export interface ScheduleCalendar {
  /** The schedules of each company-local day (YYYY-MM-DD), by send time. */
  byDay: Map<string, ScheduleRecord[]>;
  loading: boolean;
}

const bySendAt = (a: ScheduleRecord, b: ScheduleRecord) => a.sendAt.localeCompare(b.sendAt) || a.id - b.id;

/**
 * The schedules of the days a month panel shows, kept live. The panel shows six weeks around the
 * month; a week either side covers them whatever day the locale starts the week on (52 days at
 * most, within the API's 62).
 */
export function useScheduleCalendar(month: Dayjs, tz: string): ScheduleCalendar {
  const { t } = useTranslation('schedules');
  const { message } = App.useApp();
  const { user, realtime } = useAuth();
  const [schedules, setSchedules] = useState<ScheduleRecord[]>([]);
  const [loading, setLoading] = useState(true);
  // Bumped after a socket reconnect: events of the gap were lost, so the range is read again.
  const [generation, setGeneration] = useState(0);
  useEffect(() => realtime.onReconnect(() => setGeneration((g) => g + 1)), [realtime]);
  const from = month.startOf('month').subtract(7, 'day').format('YYYY-MM-DD');
  const to = month.endOf('month').add(14, 'day').format('YYYY-MM-DD');

  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    api
      .get<{ schedules: ScheduleRecord[] }>('/schedules/calendar', { from, to }, { signal: controller.signal })
      .then((answer) => setSchedules(answer.schedules))
      .catch((err: unknown) => {
        if (controller.signal.aborted) return;
        void message.error(t('loadFailed'));
        console.error(err);
      })
      .finally(() => {
        if (!controller.signal.aborted) setLoading(false);
      });
    return () => controller.abort();
  }, [from, to, generation, message, t]);

  useEffect(() => {
    if (!user) return;
    return realtime.on(scheduleChannel(user.companyId), (data) => {
      const frame = data as ScheduleFrame;
      if (frame.action === 'delete') {
        setSchedules((current) => current.filter((s) => s.id !== frame.scheduleId));
        return;
      }
      const day = zonedDay(frame.schedule.sendAt, tz);
      setSchedules((current) => {
        const others = current.filter((s) => s.id !== frame.schedule.id);
        return day >= from && day <= to ? [...others, frame.schedule] : others;
      });
    });
  }, [user, realtime, tz, from, to]);

  const byDay = useMemo(() => {
    const days = new Map<string, ScheduleRecord[]>();
    for (const schedule of [...schedules].sort(bySendAt)) {
      const day = zonedDay(schedule.sendAt, tz);
      days.set(day, [...(days.get(day) ?? []), schedule]);
    }
    return days;
  }, [schedules, tz]);

  return { byDay, loading };
}
