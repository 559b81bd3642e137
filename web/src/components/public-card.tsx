import type { ReactNode } from 'react';
import { Card, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** The centred card of the public pages (login, password recovery), under the product's name. */
export function PublicCard({ title, children }: { title?: string; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div style={{ minHeight: '100vh', display: 'grid', placeItems: 'center', padding: 16 }}>
      <Card style={{ width: '100%', maxWidth: 380 }}>
        <Typography.Title level={3} style={{ textAlign: 'center', marginTop: 0 }}>
          {t('common:appName')}
        </Typography.Title>
        {title ? (
          <Typography.Title level={5} style={{ marginTop: 0 }}>
            {title}
          </Typography.Title>
        ) : null}
        {children}
      </Card>
    </div>
  );
}
