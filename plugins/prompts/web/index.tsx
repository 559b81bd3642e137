import { lazy } from 'react';
import { OpenAIOutlined } from '@ant-design/icons';
import { definePluginWeb, isAdmin, planAllows, type Gate } from 'atende/web';

const useOpenAi = planAllows('useOpenAi');
const admins: Gate = (ctx) => useOpenAi(ctx) && isAdmin(ctx);
const PromptSelect = lazy(() => import('./prompt-select'));

export default definePluginWeb({
  name: 'prompts',
  translations: async (language) => (await import('./prompts.i18n')).promptsTranslations[language],
  pages: [
    {
      path: '/prompts',
      component: lazy(() => import('./prompts-page')),
      gate: admins,
      deniedKey: 'session.accessDenied',
      menu: { href: '/prompts', labelKey: 'menu', icon: <OpenAIOutlined />, section: 'admin' },
    },
  ],
  // Where a prompt attaches: a connection (while the ticket has no queue) or a queue.
  formFields: [
    { form: 'connection', name: 'promptId', component: PromptSelect, gate: useOpenAi },
    { form: 'queue', name: 'promptId', component: PromptSelect, gate: useOpenAi },
  ],
});
