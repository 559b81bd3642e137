import { Avatar, Tooltip, theme } from 'antd';
import { ApiOutlined, MessageOutlined, NodeIndexOutlined, RobotOutlined } from '@ant-design/icons';
import type { IntegrationType } from '../integration.contract';

/** Each type's mark: an icon on its own colour (the theme's preset colours). */
export function TypeLogo({ type, size = 32 }: { type: IntegrationType; size?: number }) {
  const { token } = theme.useToken();
  const marks: Record<IntegrationType, { icon: React.ReactNode; color: string; label: string }> = {
    n8n: { icon: <NodeIndexOutlined />, color: token.magenta6, label: 'n8n' },
    webhook: { icon: <ApiOutlined />, color: token.green6, label: 'Webhook' },
    typebot: { icon: <RobotOutlined />, color: token.blue6, label: 'Typebot' },
    dialogflow: { icon: <MessageOutlined />, color: token.orange6, label: 'Dialogflow' },
  };
  const mark = marks[type];
  return (
    <Tooltip title={mark.label}>
      <Avatar size={size} icon={mark.icon} style={{ backgroundColor: mark.color }} aria-label={mark.label} data-testid={`integration-logo-${type}`} />
    </Tooltip>
  );
}

export const TYPE_LABELS: Record<IntegrationType, string> = { n8n: 'n8n', webhook: 'Webhook', typebot: 'Typebot', dialogflow: 'Dialogflow' };
