import { Badge, Flex, Grid, Rate, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { InfiniteTable } from '../../components/infinite-table';
import { hoursAndMinutes, ratingLevel } from './dashboard-format';
import type { Attendant } from './dashboard.types';

/** The average rate as three stars and the label of its rounded value; '-' before any rating. */
function Rating({ rating }: { rating: number | null }) {
  const { t } = useTranslation('dashboard');
  if (rating === null) return <span aria-label={t('attendants.noRating')}>-</span>;
  const label = t(`ratings.${ratingLevel(rating)}`);
  return (
    <Flex wrap align="center" style={{ columnGap: 8 }}>
      <Rate disabled allowHalf count={3} value={rating} style={{ fontSize: 14 }} aria-hidden />
      <Typography.Text>{label}</Typography.Text>
    </Flex>
  );
}

/** Every user of the company: rating and average support time in the period, and whether online now. */
export function AttendantsTable({ attendants, loading }: { attendants: Attendant[]; loading: boolean }) {
  const { t } = useTranslation('dashboard');
  const screens = Grid.useBreakpoint();
  const compact = !screens.sm;
  const onlineText = (online: boolean) => t(online ? 'attendants.online' : 'attendants.offline');
  const columns: TableColumnsType<Attendant> = [
    {
      title: t('attendants.name'),
      dataIndex: 'name',
      ellipsis: true,
      // A phone has no room for the status column: its dot goes before the name.
      render: (name: string, attendant) =>
        compact ? (
          <Flex gap={8} align="center">
            <Badge status={attendant.online ? 'success' : 'error'} role="img" aria-label={onlineText(attendant.online)} title={onlineText(attendant.online)} />
            <Typography.Text ellipsis>{name}</Typography.Text>
          </Flex>
        ) : (
          name
        ),
    },
    { title: t('attendants.rating'), dataIndex: 'rating', width: compact ? 104 : 220, render: (rating: number | null) => <Rating rating={rating} /> },
    {
      title: t('attendants.avgSupportTime'),
      dataIndex: 'avgSupportTime',
      align: 'center',
      width: compact ? 104 : 180,
      render: (minutes: number) => hoursAndMinutes(minutes),
    },
    ...(compact
      ? []
      : [{ title: t('attendants.status'), dataIndex: 'online', width: 140, render: (online: boolean) => <Badge status={online ? 'success' : 'error'} text={onlineText(online)} /> }]),
  ];
  return (
    <Flex vertical gap={8}>
      <Typography.Title level={5} style={{ margin: 0 }}>
        {t('attendants.title')}
      </Typography.Title>
      <InfiniteTable<Attendant> columns={columns} items={attendants} loading={loading} compact={compact} scrollBody={false} testId="attendants-table" />
    </Flex>
  );
}
