import Icon, { CheckOutlined, ClockCircleOutlined } from '@ant-design/icons';
import { theme } from 'antd';
import { useTranslation } from 'react-i18next';

/** Two check marks (antd has only one). */
function DoubleCheckSvg() {
  return (
    <svg viewBox="0 0 24 24" width="1em" height="1em" fill="currentColor" aria-hidden="true">
      <path d="M18 7l-1.41-1.41-6.34 6.34 1.41 1.41L18 7zm4.24-1.41L11.66 16.17 7.48 12l-1.41 1.41L11.66 19l12-12-1.42-1.41zM.41 13.41L6 19l1.41-1.41L1.83 12 .41 13.41z" />
    </svg>
  );
}

/**
 * The delivery state of an own message: 0 a clock, 1 one check, 2 two grey checks (delivered),
 * 3 two checks (read), 4–5 two blue checks (read, played).
 */
export function AckIcon({ ack }: { ack: number }) {
  const { t } = useTranslation('conversation');
  const { token } = theme.useToken();
  const level = Math.max(0, Math.min(5, Math.trunc(ack)));
  const label = t(`messages.ack.${level}`);
  const common = { 'aria-label': label, title: label, 'data-ack': level, role: 'img' } as const;
  if (level === 0) return <ClockCircleOutlined {...common} style={{ color: token.colorTextTertiary }} />;
  if (level === 1) return <CheckOutlined {...common} style={{ color: token.colorTextTertiary }} />;
  const color = level >= 4 ? token.colorInfo : level === 3 ? token.colorTextSecondary : token.colorTextTertiary;
  return <Icon component={DoubleCheckSvg} {...common} style={{ color, fontSize: 15 }} />;
}
