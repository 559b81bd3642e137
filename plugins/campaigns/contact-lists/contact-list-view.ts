import type { Knex } from 'knex';
import type { PluginRealtime } from 'atende/plugin';
import type { ContactListCheck, ContactListEvent, ContactListItemEvent, ContactListItemView, ContactListView } from './contact-list.contract.js';
import { ContactList, ContactListItem } from './contact-list.model.js';

interface Counts {
  total: number;
  checked: number;
  valid: number;
}

/** Items, checked and valid counts of each list, in one grouped query. */
async function countsOf(db: Knex, companyId: number, listIds: number[]): Promise<Map<number, Counts>> {
  if (listIds.length === 0) return new Map();
  const rows: { contactListId: number; total: number | string; checked: number | string; valid: number | string | null }[] = await db(ContactListItem.tableName)
    .where('companyId', companyId)
    .whereIn('contactListId', listIds)
    .groupBy('contactListId')
    .select('contactListId')
    .count({ total: '*' })
    .count({ checked: 'whatsapp_checked_at' })
    .sum({ valid: db.raw('case when whatsapp_checked_at is not null and is_whatsapp_valid = ? then 1 else 0 end', [true]) });
  return new Map(rows.map((r) => [Number(r.contactListId), { total: Number(r.total), checked: Number(r.checked), valid: Number(r.valid ?? 0) }]));
}

function checkOf(list: ContactList, counts: Counts | undefined): ContactListCheck {
  const { total, checked, valid } = counts ?? { total: 0, checked: 0, valid: 0 };
  const waiting = checked < total ? list.checkWaiting : null;
  return { total, checked, valid, invalid: checked - valid, running: checked < total && !waiting, waiting };
}

export async function toListViews(db: Knex, lists: ContactList[]): Promise<ContactListView[]> {
  if (lists.length === 0) return [];
  const counts = await countsOf(
    db,
    lists[0]!.companyId,
    lists.map((l) => l.id),
  );
  return lists.map((l) => {
    const check = checkOf(l, counts.get(l.id));
    return { id: l.id, name: l.name, contactsCount: check.total, check, createdAt: l.createdAt, updatedAt: l.updatedAt };
  });
}

export async function loadListView(db: Knex, companyId: number, id: number): Promise<ContactListView | undefined> {
  const list = await ContactList.query(db).findOne({ id, companyId });
  return list && (await toListViews(db, [list]))[0];
}

export function toItemView(item: ContactListItem): ContactListItemView {
  return {
    id: item.id,
    contactListId: item.contactListId,
    companyId: item.companyId,
    name: item.name,
    number: item.number,
    email: item.email,
    // An item whose number changed since its check shows as not checked.
    isWhatsappValid: item.whatsappCheckedAt ? item.isWhatsappValid : null,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  };
}

/** The spec's channels, to the company's sockets only: every user of the company reads its lists. */
export function publishList(realtime: PluginRealtime, companyId: number, event: ContactListEvent): void {
  realtime.publish(companyId, `company-${companyId}-ContactList`, event);
}

/** An item's frame goes to the company's channel and to its list's. A check batch only to its list's. */
export function publishItem(realtime: PluginRealtime, companyId: number, event: ContactListItemEvent): void {
  const listId = 'contactListItem' in event ? event.contactListItem.contactListId : event.contactListId;
  if (event.action !== 'checked') realtime.publish(companyId, `company-${companyId}-ContactListItem`, event);
  realtime.publish(companyId, `company-${companyId}-ContactListItem-${listId}`, event);
}
