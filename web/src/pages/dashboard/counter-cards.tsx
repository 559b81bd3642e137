import type { ReactNode } from 'react';
import { Card, Col, Flex, Row, Statistic, theme, type GlobalToken } from 'antd';
import { CheckCircleOutlined, ClockCircleOutlined, FieldTimeOutlined, HourglassOutlined, MessageOutlined, UserAddOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { hoursAndMinutes } from './dashboard-format';
import type { Counters } from './dashboard.types';

type Tone = 'Primary' | 'Warning' | 'Success' | 'Info';

/** The six cards in the spec's order; the two averages are times, shown as hours and minutes. */
const CARDS: { key: keyof Counters; icon: ReactNode; tone: Tone; time?: boolean }[] = [
  { key: 'supportHappening', icon: <MessageOutlined />, tone: 'Primary' },
  { key: 'supportPending', icon: <HourglassOutlined />, tone: 'Warning' },
  { key: 'supportFinished', icon: <CheckCircleOutlined />, tone: 'Success' },
  { key: 'leads', icon: <UserAddOutlined />, tone: 'Info' },
  { key: 'avgSupportTime', icon: <FieldTimeOutlined />, tone: 'Primary', time: true },
  { key: 'avgWaitTime', icon: <ClockCircleOutlined />, tone: 'Warning', time: true },
];

function IconBadge({ icon, tone, token }: { icon: ReactNode; tone: Tone; token: GlobalToken }) {
  return (
    <Flex
      align="center"
      justify="center"
      aria-hidden
      style={{ width: 48, height: 48, flex: 'none', borderRadius: token.borderRadiusLG, fontSize: 24, color: token[`color${tone}`], background: token[`color${tone}Bg`] }}
    >
      {icon}
    </Flex>
  );
}

/** The counters of the period (Em Conversa and Aguardando are the tickets of now); skeletons until the first answer. */
export function CounterCards({ counters }: { counters: Counters | null }) {
  const { t } = useTranslation('dashboard');
  const { token } = theme.useToken();
  return (
    // One column on a phone, then two, three, and all six in a row on a wide screen.
    <Row gutter={[16, 16]}>
      {CARDS.map(({ key, icon, tone, time }) => (
        <Col key={key} xs={24} sm={12} lg={8} xxl={4}>
          <Card size="small" loading={!counters} data-testid={`card-${key}`} style={{ height: '100%' }}>
            <Flex align="center" gap={16}>
              <IconBadge icon={icon} tone={tone} token={token} />
              <Statistic title={t(`cards.${key}`)} value={counters ? (time ? hoursAndMinutes(counters[key]) : counters[key]) : 0} />
            </Flex>
          </Card>
        </Col>
      ))}
    </Row>
  );
}
