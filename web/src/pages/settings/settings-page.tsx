import { useState } from 'react';
import { Card, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../auth/auth-provider';
import { registerTranslations } from '../../i18n';
import { CompaniesTab } from './companies-tab';
import { HelpsTab } from './helps-tab';
import { OptionsTab } from './options-tab';
import { PlansTab } from './plans-tab';
import { SchedulesTab } from './schedules-tab';
import { settingsTranslations } from './settings.i18n';
import { useCompanySettings } from './use-company-settings';

registerTranslations('settings', settingsTranslations);

/**
 * /settings (admins): Opções for every admin, Horários while scheduleType is 'company', and
 * Empresas, Planos and Ajuda for super users. Changing tab reloads the settings and (by mounting
 * the tab again) the company.
 */
export default function SettingsPage() {
  const { t } = useTranslation('settings');
  const { user } = useAuth();
  const settings = useCompanySettings();
  const [active, setActive] = useState('options');
  if (!user) return null;

  const items = [
    { key: 'options', label: t('tabs.options'), children: <OptionsTab settings={settings} /> },
    ...(settings.values.scheduleType === 'company'
      ? [{ key: 'schedules', label: t('tabs.schedules'), children: <SchedulesTab companyId={user.companyId} /> }]
      : []),
    ...(user.super
      ? [
          { key: 'companies', label: t('tabs.companies'), children: <CompaniesTab /> },
          { key: 'plans', label: t('tabs.plans'), children: <PlansTab /> },
          { key: 'helps', label: t('tabs.helps'), children: <HelpsTab /> },
        ]
      : []),
  ];
  // Horários disappears when another admin turns company hours off while it is open.
  const activeKey = items.some((item) => item.key === active) ? active : 'options';

  return (
    <Card title={t('title')} styles={{ body: { paddingTop: 0 } }}>
      <Tabs
        activeKey={activeKey}
        onChange={(key) => {
          setActive(key);
          settings.reload();
        }}
        items={items}
        destroyOnHidden
        data-testid="settings-tabs"
      />
    </Card>
  );
}
