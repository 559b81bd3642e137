import { Suspense, useEffect, useMemo, useState, type ReactNode } from 'react';
import { Button, Drawer, Flex, Layout, Menu, Popover, Slider, Space, Tooltip, Typography, theme } from 'antd';
import { MenuOutlined, MoonOutlined, ReloadOutlined, SoundOutlined, SunOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { useApiQuery } from '../hooks/use-api-query';
import { useAuth, useGateContext } from '../auth/auth-provider';
import { useThemePreference } from '../theme/theme-preference';
import { headerItems, isAdmin as isAdminGate, pluginNamespaces, visiblePages } from '../pages/registry';
import { AccountMenu } from './account-menu';
import { formatDate } from './dates';
import { NotificationsBell } from './notifications-bell';
import { NARROW_WIDTH, WIDE_WIDTH, useViewportWidth } from './use-viewport';

const VOLUME_KEY = 'volume';
const SIDER_WIDTH = 240;

/** The server's version for the footer; nothing while unknown (a failure stays quiet). */
function useAppVersion(): string {
  return useApiQuery<{ version: string }>('/version').data?.version ?? '';
}

function VolumeControl() {
  const { t } = useTranslation();
  const [volume, setVolume] = useState(() => {
    const stored = Number(localStorage.getItem(VOLUME_KEY) ?? '1');
    return Number.isFinite(stored) ? Math.min(1, Math.max(0, stored)) : 1;
  });
  const change = (value: number) => {
    setVolume(value);
    localStorage.setItem(VOLUME_KEY, String(value));
  };
  return (
    <Popover
      trigger="click"
      content={
        <div style={{ width: 160 }}>
          <Slider min={0} max={1} step={0.1} value={volume} onChange={change} aria-label={t('topbar.volume')} />
        </div>
      }
    >
      <Tooltip title={t('topbar.volume')}>
        <Button type="text" icon={<SoundOutlined />} aria-label={t('topbar.volume')} />
      </Tooltip>
    </Popover>
  );
}

/**
 * Loads the plugins' strings in the current language (their menu labels): true once they are in.
 * No suspense: the rest of the menu shows meanwhile, a plugin's entry once its label is there.
 */
function usePluginLabels(): boolean {
  return useTranslation(pluginNamespaces, { useSuspense: false }).ready;
}

/** The drawer menu, the top bar and the page: every private page renders inside. */
export function MainLayout({ children }: { children: ReactNode }) {
  const { t, i18n } = useTranslation();
  const pluginLabels = usePluginLabels();
  const { token } = theme.useToken();
  const { user } = useAuth();
  const gateContext = useGateContext();
  const { mode, toggle } = useThemePreference();
  const [location, navigate] = useLocation();
  const width = useViewportWidth();
  const narrow = width < NARROW_WIDTH;
  const version = useAppVersion();
  const sideMenuSetting = user?.company.settings.find((s) => s.key === 'sideMenu')?.value;
  const [open, setOpen] = useState(() => width >= WIDE_WIDTH || (width >= NARROW_WIDTH && sideMenuSetting !== 'closed'));

  // Collapse under 600 px, open above 1200 px; in between the user decides.
  useEffect(() => {
    if (narrow) setOpen(false);
    else if (width >= WIDE_WIDTH) setOpen(true);
  }, [narrow, width]);

  const items = useMemo(() => {
    if (!gateContext) return [];
    const visible = visiblePages(gateContext).filter((p) => p.menu && i18n.exists(p.menu.labelKey));
    const entry = (p: (typeof visible)[number]) => {
      const { href, icon, labelKey, badge: Badge } = p.menu!;
      // A real link: it opens in a new tab on a middle or ctrl click (antd stretches it over the item).
      const label = (
        <Link href={href}>
          {Badge ? (
            <Flex align="center" justify="space-between" gap={8}>
              {t(labelKey)}
              <Badge />
            </Flex>
          ) : (
            t(labelKey)
          )}
        </Link>
      );
      return { key: href, icon, label };
    };
    const main = visible.filter((p) => p.menu!.section === 'main').map(entry);
    // The admin section is for admins (drawer-admin-items:view), whatever its pages' own gates.
    const admin = isAdminGate(gateContext) ? visible.filter((p) => p.menu!.section === 'admin').map(entry) : [];
    return admin.length > 0
      ? [...main, { type: 'group' as const, key: 'admin', label: t('menu.administration'), children: admin }]
      : main;
  }, [gateContext, t, i18n, pluginLabels]);

  if (!user) return null;
  const isAdmin = user.profile === 'admin' || user.super;
  const selected = '/' + (location.split('/')[1] ?? '');

  const menu = (
    <div style={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
      <div style={{ padding: '16px 24px', fontWeight: 600, fontSize: 18 }}>{t('appName')}</div>
      <Menu
        mode="inline"
        selectedKeys={[selected]}
        items={items}
        style={{ flex: 1, borderInlineEnd: 0, overflowY: 'auto' }}
        onClick={({ key, domEvent }) => {
          // The link follows clicks (and Enter on itself); Enter on the focused item lands here only.
          if (domEvent.type === 'keydown' && !(domEvent.target instanceof HTMLAnchorElement)) navigate(key);
          if (narrow) setOpen(false);
        }}
        data-testid="main-menu"
      />
      <Typography.Text type="secondary" style={{ padding: '8px 24px', fontSize: 12 }} data-testid="app-version">
        {version ? t('menu.version', { version }) : ''}
      </Typography.Text>
    </div>
  );

  return (
    <Layout style={{ minHeight: '100vh' }}>
      {narrow ? (
        <Drawer placement="left" open={open} onClose={() => setOpen(false)} width={SIDER_WIDTH} styles={{ body: { padding: 0 } }} forceRender>
          {menu}
        </Drawer>
      ) : (
        <Layout.Sider
          width={SIDER_WIDTH}
          collapsed={!open}
          collapsedWidth={0}
          trigger={null}
          theme="light"
          style={{ borderInlineEnd: `1px solid ${token.colorBorderSecondary}` }}
        >
          {menu}
        </Layout.Sider>
      )}
      <Layout>
        <Layout.Header
          style={{
            display: 'flex',
            alignItems: 'center',
            gap: 8,
            paddingInline: 12,
            background: token.colorBgContainer,
            borderBottom: `1px solid ${token.colorBorderSecondary}`,
          }}
        >
          <Button type="text" icon={<MenuOutlined />} onClick={() => setOpen(!open)} aria-label={t('topbar.openMenu')} />
          <Typography.Text ellipsis style={{ flex: 1, minWidth: 0 }} data-testid="greeting">
            {t('topbar.greeting', { name: user.name, company: user.company.name })}
            {isAdmin && user.company.dueDate && !narrow ? (
              <Typography.Text type="secondary"> — {t('topbar.dueDate', { date: formatDate(user.company.dueDate) })}</Typography.Text>
            ) : null}
          </Typography.Text>
          <Space size={0}>
            <Tooltip title={t('topbar.theme')}>
              <Button
                type="text"
                icon={mode === 'dark' ? <SunOutlined /> : <MoonOutlined />}
                onClick={toggle}
                aria-label={t('topbar.theme')}
                data-testid="theme-toggle"
              />
            </Tooltip>
            {gateContext
              ? headerItems
                  .filter((item) => !item.gate || item.gate(gateContext))
                  .map(({ component: Item }, i) => (
                    // Its own boundary: a plugin's item waiting for its strings holds up nothing else.
                    <Suspense key={i} fallback={null}>
                      <Item />
                    </Suspense>
                  ))
              : null}
            <NotificationsBell />
            <VolumeControl />
            <Tooltip title={t('topbar.reload')}>
              <Button type="text" icon={<ReloadOutlined />} onClick={() => window.location.reload()} aria-label={t('topbar.reload')} />
            </Tooltip>
            <AccountMenu />
          </Space>
        </Layout.Header>
        <Layout.Content style={{ padding: narrow ? 8 : 16, minWidth: 0 }}>{children}</Layout.Content>
      </Layout>
    </Layout>
  );
}
