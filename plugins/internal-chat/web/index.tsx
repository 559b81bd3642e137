import { lazy } from 'react';
import { CommentOutlined } from '@ant-design/icons';
import { definePluginWeb, planAllows } from 'atende/web';
import { ChatsBadge } from './chats-badge';

export default definePluginWeb({
  name: 'internal-chat',
  translations: async (language) => (await import('./chats.i18n')).chatsTranslations[language],
  pages: [
    {
      path: '/chats/:id?',
      component: lazy(() => import('./chats-page')),
      gate: planAllows('useInternalChat'),
      deniedKey: 'session.accessDenied',
      menu: { href: '/chats', labelKey: 'menu', icon: <CommentOutlined />, section: 'main', badge: ChatsBadge, before: '/helps' },
    },
  ],
});
