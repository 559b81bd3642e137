import { useMemo } from 'react';
import { Col, Form, Row, Select, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import type { CompanySettings } from './use-company-settings';

/** Each option the Opções tab offers: the setting it writes and the values it allows. */
const OPTIONS: { key: string; choices: [value: string, labelKey: string][] }[] = [
  { key: 'userRating', choices: [['disabled', 'ratingDisabled'], ['enabled', 'ratingEnabled']] },
  { key: 'scheduleType', choices: [['disabled', 'disabled'], ['queue', 'scheduleQueue'], ['company', 'scheduleCompany']] },
  { key: 'CheckMsgIsGroup', choices: [['disabled', 'disabled'], ['enabled', 'enabled']] },
  { key: 'call', choices: [['disabled', 'callReject'], ['enabled', 'callAccept']] },
  { key: 'chatBotType', choices: [['text', 'chatBotText']] },
  { key: 'sendGreetingAccepted', choices: [['disabled', 'disabled'], ['enabled', 'enabled']] },
  { key: 'sendMsgTransfTicket', choices: [['disabled', 'disabled'], ['enabled', 'enabled']] },
  { key: 'sendGreetingMessageOneQueues', choices: [['disabled', 'disabled'], ['enabled', 'enabled']] },
];

/** Every zone the browser knows, plus the stored one should the browser not list it (e.g. UTC). */
function timeZones(current: string | undefined): { value: string; label: string }[] {
  const zones = Intl.supportedValuesOf('timeZone');
  const all = current && !zones.includes(current) ? [current, ...zones] : zones;
  return all.map((zone) => ({ value: zone, label: zone.replaceAll('_', ' ') }));
}

/** Opções: one select per company setting; a change is written at once. */
export function OptionsTab({ settings }: { settings: CompanySettings }) {
  const { t } = useTranslation('settings');
  const { values, loading, saving, update } = settings;
  const zones = useMemo(() => timeZones(values.timezone), [values.timezone]);

  if (loading) return <Skeleton active paragraph={{ rows: 6 }} />;

  return (
    <Form layout="vertical" component="div">
      <Row gutter={[24, 0]}>
        {OPTIONS.map(({ key, choices }) => (
          <Col key={key} xs={24} md={12}>
            <Form.Item label={t(`options.${key}`)} htmlFor={`setting-${key}`}>
              <Select
                id={`setting-${key}`}
                data-testid={`setting-${key}`}
                value={values[key]}
                loading={saving === key}
                disabled={saving === key}
                onChange={(value: string) => void update(key, value)}
                options={choices.map(([value, labelKey]) => ({ value, label: t(`options.values.${labelKey}`) }))}
              />
            </Form.Item>
          </Col>
        ))}
        <Col xs={24} md={12}>
          <Form.Item label={t('options.timezone')} htmlFor="setting-timezone" extra={t('options.timezoneHint')}>
            <Select
              id="setting-timezone"
              data-testid="setting-timezone"
              showSearch={{ optionFilterProp: 'label' }}
              value={values.timezone}
              loading={saving === 'timezone'}
              disabled={saving === 'timezone'}
              onChange={(value: string) => void update('timezone', value)}
              options={zones}
            />
          </Form.Item>
        </Col>
      </Row>
    </Form>
  );
}
