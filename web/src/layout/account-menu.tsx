import { useState } from 'react';
import { Avatar, Button, Dropdown, type MenuProps } from 'antd';
import { GlobalOutlined, LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../auth/auth-provider';
import { LANGUAGES, setLanguage, type Language } from '../i18n';
import { UserModal } from '../pages/users/user-modal';

/** Profile (the own user modal), language and logout. */
export function AccountMenu() {
  const { t, i18n } = useTranslation();
  const { user, logout, updateUser } = useAuth();
  const [profileOpen, setProfileOpen] = useState(false);
  if (!user) return null;

  const items: MenuProps['items'] = [
    { key: 'profile', icon: <UserOutlined />, label: t('topbar.profile') },
    {
      key: 'language',
      icon: <GlobalOutlined />,
      label: t('topbar.language'),
      children: LANGUAGES.map((l) => ({
        key: `lang:${l.code}`,
        label: l.label,
        disabled: i18n.language === l.code,
      })),
    },
    { type: 'divider' },
    { key: 'logout', icon: <LogoutOutlined />, label: t('topbar.logout'), danger: true },
  ];

  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key === 'profile') setProfileOpen(true);
    else if (key === 'logout') void logout();
    else if (key.startsWith('lang:')) setLanguage(key.slice(5) as Language);
  };

  return (
    <>
      <Dropdown menu={{ items, onClick }} trigger={['click']} placement="bottomRight">
        <Button type="text" aria-label={t('topbar.profile')} data-testid="account-menu">
          <Avatar size="small" icon={<UserOutlined />} />
        </Button>
      </Dropdown>
      <UserModal
        open={profileOpen}
        userId={user.id}
        onClose={() => setProfileOpen(false)}
        onSaved={(saved) => {
          if (saved.id === user.id) updateUser({ ...user, ...saved });
        }}
      />
    </>
  );
}
