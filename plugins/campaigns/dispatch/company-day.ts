import type { PluginApp } from 'atende/plugin';

/** The company's timezone setting (the product's default when unset). */
export async function companyTimeZone(app: PluginApp, companyId: number): Promise<string> {
  return (await app.services.settings.get(companyId, 'timezone')) || 'America/Sao_Paulo';
}

/** The calendar day `YYYY-MM-DD` of an instant in a timezone. */
export function dayIn(timeZone: string, at: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}
