import { useState } from 'react';
import { Badge, Button, Calendar, Empty, Flex, Spin, Typography, theme } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { RowActions, wallClockOf, zonedText } from 'atende/web';
import type { ScheduleRecord, ScheduleStatus } from './schedule-record';
import { useScheduleCalendar } from './use-schedule-calendar';

export interface ScheduleActions {
  onEdit(schedule: ScheduleRecord): void;
  /** Absent for a schedule the user may not delete. */
  onDelete(schedule: ScheduleRecord): (() => void) | undefined;
  /** The edit button's name ("Editar…" or "Ver…"), with the contact and the time. */
  editLabel(schedule: ScheduleRecord): string;
  deleteLabel(schedule: ScheduleRecord): string;
}

export interface SchedulesCalendarProps {
  tz: string;
  /** A phone: days show a count, the chosen day's schedules are listed under the month. */
  compact: boolean;
  /** A new schedule on this company-local day (YYYY-MM-DD). */
  onAdd(day: string): void;
  actions: ScheduleActions;
}

/** One schedule in a day: its time and its contact, in its status colour, with edit and delete buttons. */
function ScheduleChip({ schedule, tz, actions }: { schedule: ScheduleRecord; tz: string; actions: ScheduleActions }) {
  const { token } = theme.useToken();
  const colours: Record<ScheduleStatus, string> = {
    PENDENTE: token.colorPrimary,
    AGENDADA: token.colorWarning,
    ENVIADA: token.colorSuccess,
    ERRO: token.colorError,
  };
  return (
    <div
      // A click on the chip is not a click on the day (which adds a schedule).
      onClick={(event) => event.stopPropagation()}
      data-testid="schedule-event"
      style={{
        borderInlineStart: `3px solid ${colours[schedule.status]}`,
        background: token.colorFillQuaternary,
        borderRadius: token.borderRadiusSM,
        padding: '0 2px 2px 6px',
        marginBottom: 4,
        minWidth: 0,
      }}
    >
      <Flex align="center" justify="space-between" gap={4}>
        <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
          {zonedText(schedule.sendAt, tz, 'HH:mm')}
        </Typography.Text>
        <RowActions
          size="small"
          editLabel={actions.editLabel(schedule)}
          onEdit={() => actions.onEdit(schedule)}
          deleteLabel={actions.deleteLabel(schedule)}
          onDelete={actions.onDelete(schedule)}
        />
      </Flex>
      <Typography.Text ellipsis={{ tooltip: schedule.contact.name }} style={{ display: 'block', fontSize: token.fontSizeSM, lineHeight: 1.3 }}>
        {schedule.contact.name}
      </Typography.Text>
    </div>
  );
}

/**
 * The month's schedules on a calendar, in the company's timezone. A click on a day's free space adds
 * a schedule that day (on a phone it picks the day, whose schedules are listed below).
 */
export function SchedulesCalendar({ tz, compact, onAdd, actions }: SchedulesCalendarProps) {
  const { t } = useTranslation('schedules');
  const { token } = theme.useToken();
  const [selected, setSelected] = useState<Dayjs>(() => wallClockOf(new Date(), tz));
  const { byDay, loading } = useScheduleCalendar(selected, tz);
  const selectedDay = selected.format('YYYY-MM-DD');
  const daySchedules = byDay.get(selectedDay) ?? [];

  const cellRender = (date: Dayjs) => {
    const schedules = byDay.get(date.format('YYYY-MM-DD')) ?? [];
    if (schedules.length === 0) return null;
    if (compact) return <Badge count={schedules.length} size="small" color={token.colorPrimary} />;
    return schedules.map((schedule) => <ScheduleChip key={schedule.id} schedule={schedule} tz={tz} actions={actions} />);
  };

  return (
    <Flex vertical gap={12}>
      <Spin spinning={loading}>
        <div data-testid="schedules-calendar">
          <Calendar
          value={selected}
          // A phone's days hold a count only: short rows keep the month on one screen.
          styles={compact ? { itemContent: { height: 22, overflow: 'hidden' } } : undefined}
          onChange={setSelected}
          onSelect={(date, { source }) => {
            if (source === 'date' && !compact) onAdd(date.format('YYYY-MM-DD'));
          }}
          cellRender={(date, info) => (info.type === 'date' ? cellRender(date) : null)}
          />
        </div>
      </Spin>
      {compact ? (
        <Flex vertical gap={8} data-testid="schedules-day">
          <Flex align="center" justify="space-between" gap={8}>
            <Typography.Text strong>{selected.format('DD/MM/YYYY')}</Typography.Text>
            <Button icon={<PlusOutlined />} onClick={() => onAdd(selectedDay)}>
              {t('addOnDay', { date: selected.format('DD/MM') })}
            </Button>
          </Flex>
          {daySchedules.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('dayEmpty')} />
          ) : (
            daySchedules.map((schedule) => <ScheduleChip key={schedule.id} schedule={schedule} tz={tz} actions={actions} />)
          )}
        </Flex>
      ) : null}
    </Flex>
  );
}
