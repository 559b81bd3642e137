import { Col, Form, Row, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { WEEKDAYS_EN, type ScheduleEntry, type WeekdayEn } from '../api/types';
import { registerTranslations } from '../i18n';
import { TIME_PATTERN, TimeInput } from './time-input';
import { weekHoursTranslations } from './week-hours.i18n';

registerTranslations('weekHours', weekHoursTranslations);

/** The Portuguese name the server stores beside each day's English key. */
const WEEKDAY_NAMES: Record<WeekdayEn, string> = {
  monday: 'Segunda-feira',
  tuesday: 'Terça-feira',
  wednesday: 'Quarta-feira',
  thursday: 'Quinta-feira',
  friday: 'Sexta-feira',
  saturday: 'Sábado',
  sunday: 'Domingo',
};

export interface DayHours {
  startTime: string;
  endTime: string;
}

/** The seven days in order, each with the stored hours (empty where none are stored). */
export function toWeekRows(schedules: ScheduleEntry[]): DayHours[] {
  return WEEKDAYS_EN.map((weekdayEn) => {
    const entry = schedules.find((s) => s.weekdayEn === weekdayEn);
    return { startTime: entry?.startTime ?? '', endTime: entry?.endTime ?? '' };
  });
}

/** The rows back as the server's seven entries. */
export function fromWeekRows(rows: DayHours[]): ScheduleEntry[] {
  return WEEKDAYS_EN.map((weekdayEn, i) => ({
    weekday: WEEKDAY_NAMES[weekdayEn],
    weekdayEn,
    startTime: rows[i]?.startTime ?? '',
    endTime: rows[i]?.endTime ?? '',
  }));
}

/**
 * The HH:MM week editor: seven rows of start and end time, inside the caller's Form. `name` is the
 * form field holding the seven DayHours rows.
 */
export function WeekHoursFields({ name }: { name: string }) {
  const { t } = useTranslation('weekHours');
  const { token } = theme.useToken();
  const cell = { borderBottom: `1px solid ${token.colorBorderSecondary}`, paddingBlock: 12 };
  const timeRules = [
    { required: true, message: t('required') },
    { pattern: TIME_PATTERN, message: t('invalidTime') },
  ];

  return (
    <>
      <div style={cell}>
        <Row gutter={[16, 0]}>
          <Col xs={0} sm={8}>
            <Typography.Text type="secondary">{t('weekday')}</Typography.Text>
          </Col>
          <Col xs={12} sm={8}>
            <Typography.Text type="secondary">{t('start')}</Typography.Text>
          </Col>
          <Col xs={12} sm={8}>
            <Typography.Text type="secondary">{t('end')}</Typography.Text>
          </Col>
        </Row>
      </div>
      {WEEKDAYS_EN.map((weekdayEn, i) => {
        const day = t(`days.${weekdayEn}`);
        return (
          <div key={weekdayEn} style={cell} data-testid={`schedule-${weekdayEn}`}>
            <Row gutter={[16, 8]} align="middle">
              <Col xs={24} sm={8}>
                <Typography.Text strong>{day}</Typography.Text>
              </Col>
              <Col xs={12} sm={8}>
                <Form.Item name={[name, i, 'startTime']} rules={timeRules} style={{ marginBottom: 0 }}>
                  <TimeInput aria-label={`${day} ${t('start')}`} />
                </Form.Item>
              </Col>
              <Col xs={12} sm={8}>
                <Form.Item name={[name, i, 'endTime']} rules={timeRules} style={{ marginBottom: 0 }}>
                  <TimeInput aria-label={`${day} ${t('end')}`} />
                </Form.Item>
              </Col>
            </Row>
          </div>
        );
      })}
    </>
  );
}
