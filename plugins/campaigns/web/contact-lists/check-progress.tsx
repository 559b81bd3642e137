import { Flex, Progress, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ContactListCheck } from './contact-list-record';

/** Where a list's WhatsApp check stands: a bar while it runs or waits, the valid and invalid counts once done. */
export function CheckProgress({ check, compact = false }: { check: ContactListCheck; compact?: boolean }) {
  const { t } = useTranslation('campaigns');
  const { token } = theme.useToken();
  if (check.total === 0) return <Typography.Text type="secondary">{t('check.none')}</Typography.Text>;
  const percent = Math.floor((check.checked / check.total) * 100);
  const counts = { ...check };
  const text = check.waiting ? t('check.waiting', counts) : check.running ? t('check.running', counts) : t('check.done', counts);
  return (
    <Flex vertical gap={0} style={{ minWidth: 0 }} data-testid="check-progress" aria-label={`${t('check.label')}: ${text}`}>
      {check.checked < check.total ? (
        <Progress percent={percent} size="small" status={check.waiting ? 'exception' : 'active'} showInfo={!compact} aria-hidden />
      ) : null}
      <Typography.Text type={check.waiting ? 'warning' : 'secondary'} ellipsis style={{ fontSize: token.fontSizeSM }}>
        {text}
      </Typography.Text>
    </Flex>
  );
}
