import { useAuth, useLiveRecords } from 'atende/web';
import { byName, promptChannel, type PromptRecord } from './prompt-record';

/** The company's prompts, loaded whole (GET /prompt) and kept live (company-{id}-prompt). */
export function usePrompts() {
  const { user } = useAuth();
  return useLiveRecords<PromptRecord>({ path: '/prompt', listKey: 'prompts', channel: promptChannel(user?.companyId ?? 0), entityKey: 'prompt', compare: byName });
}
