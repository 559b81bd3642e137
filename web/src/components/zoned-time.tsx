import type { HTMLAttributes } from 'react';
import { Typography } from 'antd';
import { ClockCircleOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useCompanyClock } from '../layout/use-company-clock';

/** A time on the company's clock (HH:mm by default); hovering it tells the full date and the zone. */
export function ZonedTime({ value, format = 'HH:mm', ...rest }: { value: string; format?: string } & HTMLAttributes<HTMLElement>) {
  const clock = useCompanyClock();
  return (
    <time dateTime={value} title={clock.title(value)} {...rest}>
      {clock.format(value, format)}
    </time>
  );
}

/** Where the browser's clock reads otherwise than the company's, says which zone the times are in. */
export function CompanyZoneNote() {
  const { t } = useTranslation();
  const clock = useCompanyClock();
  if (!clock.differs) return null;
  return (
    <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="company-zone-note">
      <ClockCircleOutlined /> {t('time.companyZone', { zone: clock.zone, offset: `UTC${clock.at().format('Z')}` })}
    </Typography.Text>
  );
}
