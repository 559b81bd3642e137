import type {
  ContactListCheck,
  ContactListEvent,
  ContactListImportReport,
  ContactListItemEvent,
  ContactListItemPage,
  ContactListItemView,
  ContactListPage,
  ContactListView,
} from '../../contact-lists/contact-list.contract';

export type ContactListRecord = ContactListView;
export type ContactListItemRecord = ContactListItemView;
export type { ContactListCheck, ContactListEvent, ContactListImportReport, ContactListItemEvent, ContactListItemPage, ContactListPage };

export const contactListChannel = (companyId: number) => `company-${companyId}-ContactList`;
export const listItemsChannel = (companyId: number, listId: number) => `company-${companyId}-ContactListItem-${listId}`;

/** The server's order: by name. */
export const byName = (a: { name: string; id: number }, b: { name: string; id: number }) => a.name.localeCompare(b.name) || a.id - b.id;

/** A spreadsheet that imports as it is: the header the import reads and two example rows. */
const SAMPLE = ['nome;numero;email', 'Maria da Silva;5511987654321;maria@exemplo.com', 'João Souza;5521998765432;'];

/** Downloads the sample as a CSV that Excel opens (UTF-8 with a BOM, ';' between fields). */
export function downloadSample(fileName: string): void {
  const blob = new Blob([`\uFEFF${SAMPLE.join('\r\n')}\r\n`], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
