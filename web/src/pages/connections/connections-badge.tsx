import { useEffect, useState } from 'react';
import { Badge } from 'antd';
import { useTranslation } from 'react-i18next';
import { registerTranslations } from '../../i18n';
import { connectionsTranslations } from './connections.i18n';
import { ATTENTION_STATUSES } from './connections.types';
import { useConnections } from './use-connections';

registerTranslations('connections', connectionsTranslations);

/** The spec's delay before the badge follows the connections' state. */
const BADGE_DELAY_MS = 2000;

/**
 * The '!' on the Connections menu entry: shown 2 s after any connection enters a state that needs
 * attention (qrcode, PAIRING, DISCONNECTED, TIMEOUT, OPENING), hidden 2 s after none does.
 */
export function ConnectionsBadge() {
  const { t } = useTranslation('connections');
  const { items } = useConnections({ quiet: true });
  const attention = items.some((c) => ATTENTION_STATUSES.includes(c.status));
  const [shown, setShown] = useState(false);

  useEffect(() => {
    const timer = window.setTimeout(() => setShown(attention), BADGE_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [attention]);

  if (!shown) return null;
  return <Badge count="!" title={t('badge')} aria-label={t('badge')} data-testid="connections-badge" />;
}
