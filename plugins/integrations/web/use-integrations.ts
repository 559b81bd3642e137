import { usePagedList } from 'atende/web';
import { byName, integrationChannel, type IntegrationRecord } from './integration-record';

/** The company's integrations, 20 a page by name, searched (GET /queueIntegration) and kept live. */
export function useIntegrations(search: string) {
  const term = search.trim().toLowerCase();
  return usePagedList<IntegrationRecord>({
    path: '/queueIntegration',
    listKey: 'queueIntegrations',
    search: term,
    channel: integrationChannel,
    entityKey: 'queueIntegration',
    matches: (i) => !term || i.name.toLowerCase().includes(term),
    compare: byName,
  });
}
