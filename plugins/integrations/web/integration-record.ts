import type { IntegrationView } from '../integration.contract';

/** An integration as the API answers it (secrets masked). */
export type IntegrationRecord = IntegrationView;

/** The live channel: company-{id}-queueIntegration. */
export const integrationChannel = (companyId: number) => `company-${companyId}-queueIntegration`;

/** The server's order: by name. */
export const byName = (a: IntegrationRecord, b: IntegrationRecord) => a.name.localeCompare(b.name) || a.id - b.id;
