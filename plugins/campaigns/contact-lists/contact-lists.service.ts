import type { Knex } from 'knex';
import {
  ConflictError,
  ErrorCode,
  ForbiddenError,
  isAdmin,
  isPostgres,
  likePattern,
  NotFoundError,
  planContactsImport,
  readContactsFile,
  type AuthUser,
  type PluginApp,
} from 'atende/plugin';
import type { ContactListChoice, ContactListImportReport, ContactListItemPage, ContactListItemView, ContactListPage, ContactListView } from './contact-list.contract.js';
import { ContactList, ContactListItem } from './contact-list.model.js';
import { loadListView, publishItem, publishList, toItemView, toListViews } from './contact-list-view.js';
import { CONTACT_LIST_ITEMS_PAGE_SIZE, CONTACT_LISTS_PAGE_SIZE, type CreateItemInput, type ListContactListsQuery, type ListItemsQuery, type UpdateItemInput } from './contact-lists.schema.js';
import { CHECK_JOB, type WhatsappCheck } from './whatsapp-check.js';

/** Rows written or looked up per statement (SQLite's bound-parameter limit). */
const CHUNK = 500;

const listNotFound = () => new NotFoundError(ErrorCode.ERR_NO_CONTACT_LIST_FOUND);
const itemNotFound = () => new NotFoundError(ErrorCode.ERR_NO_CONTACT_LIST_ITEM_FOUND);
const numberTaken = () => new ConflictError(ErrorCode.ERR_CONTACT_LIST_ITEM_EXISTS, 'This number is already in this list');

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Contact lists of a company and their items (spec: Contact lists, List contacts). Every user of
 * the company reads, creates and edits them; deleting a list or an item is the
 * contacts-page:deleteContact permission, an admin's. A number is kept canonical and is once per
 * list; new and changed numbers owe a WhatsApp check, which a job does in batches.
 */
export class ContactListsService {
  constructor(
    private readonly app: PluginApp,
    private readonly check: WhatsappCheck,
  ) {}

  // ---- lists ----------------------------------------------------------------------------------

  /** GET /contact-lists: 20 a page by name, searched by name. */
  async list(actor: AuthUser, query: ListContactListsQuery): Promise<ContactListPage> {
    const q = ContactList.query(this.app.db).where('companyId', actor.companyId).orderBy('name').orderBy('id');
    if (query.searchParam) q.whereRaw("lower(??) like ? escape '!'", ['name', likePattern(query.searchParam)]);
    const rows = await q.limit(CONTACT_LISTS_PAGE_SIZE + 1).offset((query.pageNumber - 1) * CONTACT_LISTS_PAGE_SIZE);
    return { records: await toListViews(this.app.db, rows.slice(0, CONTACT_LISTS_PAGE_SIZE)), hasMore: rows.length > CONTACT_LISTS_PAGE_SIZE };
  }

  /** GET /contact-lists/list: every list of the caller's company (the spec's companyId is not trusted). */
  async choices(actor: AuthUser): Promise<ContactListChoice[]> {
    const views = await toListViews(this.app.db, await ContactList.query(this.app.db).where('companyId', actor.companyId).orderBy('name').orderBy('id'));
    return views.map(({ id, name, contactsCount }) => ({ id, name, contactsCount }));
  }

  async show(actor: AuthUser, id: number): Promise<ContactListView> {
    const view = await loadListView(this.app.db, actor.companyId, id);
    if (!view) throw listNotFound();
    return view;
  }

  async create(actor: AuthUser, name: string): Promise<ContactListView> {
    const list = await ContactList.query(this.app.db).insert({ companyId: actor.companyId, name, checkWaiting: null });
    return this.announceList(actor.companyId, list.id, 'create');
  }

  async rename(actor: AuthUser, id: number, name: string): Promise<ContactListView> {
    const changed = await ContactList.query(this.app.db).where({ id, companyId: actor.companyId }).patch({ name });
    if (changed === 0) throw listNotFound();
    return this.announceList(actor.companyId, id, 'update');
  }

  /** DELETE /contact-lists/:id (admins): the list and its items. */
  async remove(actor: AuthUser, id: number): Promise<void> {
    assertDeleter(actor);
    const companyId = actor.companyId;
    await this.app.db.transaction(async (trx) => {
      await this.lockList(trx, companyId, id);
      await ContactListItem.query(trx).delete().where({ companyId, contactListId: id });
      await ContactList.query(trx).deleteById(id);
    });
    await this.app.jobs.cancel({ name: CHECK_JOB, data: { companyId, contactListId: id } }).catch(() => 0);
    publishList(this.app.realtime, companyId, { action: 'delete', contactListId: id });
  }

  /** POST /contact-lists/:id/check: checks on WhatsApp the numbers the list owes (after a connection came back, say). */
  async startCheck(actor: AuthUser, id: number): Promise<ContactListView> {
    await this.show(actor, id);
    await this.check.start(actor.companyId, id);
    return this.show(actor, id);
  }

  // ---- items ----------------------------------------------------------------------------------

  /** GET /contact-list-items: 20 a page by name, searched by name, number or e-mail. */
  async items(actor: AuthUser, query: ListItemsQuery): Promise<ContactListItemPage> {
    await this.show(actor, query.contactListId);
    const q = ContactListItem.query(this.app.db).where({ companyId: actor.companyId, contactListId: query.contactListId }).orderBy('name').orderBy('id');
    if (query.searchParam) {
      const like = likePattern(query.searchParam);
      q.where((w) =>
        w
          .whereRaw("lower(??) like ? escape '!'", ['name', like])
          .orWhereRaw("?? like ? escape '!'", ['number', like])
          .orWhereRaw("lower(??) like ? escape '!'", ['email', like]),
      );
    }
    const rows = await q.limit(CONTACT_LIST_ITEMS_PAGE_SIZE + 1).offset((query.pageNumber - 1) * CONTACT_LIST_ITEMS_PAGE_SIZE);
    return { contacts: rows.slice(0, CONTACT_LIST_ITEMS_PAGE_SIZE).map(toItemView), hasMore: rows.length > CONTACT_LIST_ITEMS_PAGE_SIZE };
  }

  async showItem(actor: AuthUser, id: number): Promise<ContactListItemView> {
    const item = await ContactListItem.query(this.app.db).findOne({ id, companyId: actor.companyId });
    if (!item) throw itemNotFound();
    return toItemView(item);
  }

  async createItem(actor: AuthUser, input: CreateItemInput): Promise<ContactListItemView> {
    const companyId = actor.companyId;
    const item = await this.app.db.transaction(async (trx) => {
      await this.lockList(trx, companyId, input.contactListId);
      await this.assertNumberFree(trx, input.contactListId, input.number);
      return ContactListItem.query(trx).insert({
        companyId,
        contactListId: input.contactListId,
        name: input.name,
        number: input.number,
        email: input.email,
        isWhatsappValid: null,
        whatsappCheckedAt: null,
      });
    });
    const view = toItemView(item);
    publishItem(this.app.realtime, companyId, { action: 'create', contactListItem: view });
    await this.check.start(companyId, item.contactListId);
    await this.announceList(companyId, item.contactListId, 'update');
    return view;
  }

  /** PUT /contact-list-items/:id: a new number owes a new WhatsApp check. */
  async updateItem(actor: AuthUser, id: number, input: UpdateItemInput): Promise<ContactListItemView> {
    const companyId = actor.companyId;
    const { item, numberChanged } = await this.app.db.transaction(async (trx) => {
      const current = await ContactListItem.query(trx).findOne({ id, companyId });
      if (!current) throw itemNotFound();
      await this.lockList(trx, companyId, current.contactListId);
      const numberChanged = input.number !== undefined && input.number !== current.number;
      if (numberChanged) await this.assertNumberFree(trx, current.contactListId, input.number!, id);
      const item = await current.$query(trx).patchAndFetch({
        ...(input.name !== undefined && { name: input.name }),
        ...(input.email !== undefined && { email: input.email }),
        ...(numberChanged && { number: input.number!, isWhatsappValid: null, whatsappCheckedAt: null }),
      });
      return { item, numberChanged };
    });
    const view = toItemView(item);
    publishItem(this.app.realtime, companyId, { action: 'update', contactListItem: view });
    if (numberChanged) {
      await this.check.start(companyId, item.contactListId);
      await this.announceList(companyId, item.contactListId, 'update');
    }
    return view;
  }

  /** DELETE /contact-list-items/:id: contacts-page:deleteContact (admins). */
  async removeItem(actor: AuthUser, id: number): Promise<void> {
    assertDeleter(actor);
    const companyId = actor.companyId;
    const item = await ContactListItem.query(this.app.db).findOne({ id, companyId });
    if (!item) throw itemNotFound();
    const deleted = await ContactListItem.query(this.app.db).delete().where({ id, companyId });
    if (deleted === 0) throw itemNotFound();
    publishItem(this.app.realtime, companyId, { action: 'delete', contactListItemId: id, contactListId: item.contactListId });
    await this.announceList(companyId, item.contactListId, 'update');
  }

  // ---- import ---------------------------------------------------------------------------------

  /**
   * POST /contact-lists/:id/upload: the file's rows into the list (new numbers created, known ones
   * renamed, an empty e-mail cell keeping the known e-mail), bad rows reported with their reason,
   * all in one transaction; with `dryRun` the same report and nothing changed. New numbers owe a
   * WhatsApp check, started after the commit.
   */
  async importFile(actor: AuthUser, id: number, file: { data: Buffer; name: string }, dryRun: boolean): Promise<ContactListImportReport> {
    const companyId = actor.companyId;
    await this.show(actor, id);
    const parsed = await readContactsFile(file.data, file.name);

    const plan = async (db: Knex) => {
      const known = new Map<string, { name: string; email: string }>();
      for (const chunk of chunks(
        parsed.candidates.map((c) => c.number),
        CHUNK,
      )) {
        const rows = await ContactListItem.query(db).where({ companyId, contactListId: id }).whereIn('number', chunk).select('number', 'name', 'email');
        for (const r of rows) known.set(r.number, { name: r.name, email: r.email });
      }
      return planContactsImport(parsed.candidates, known);
    };

    const apply = async (trx: Knex.Transaction) => {
      await this.lockList(trx, companyId, id);
      const steps = await plan(trx);
      const now = new Date().toISOString();
      for (const chunk of chunks(steps.creates, CHUNK)) {
        await trx(ContactListItem.tableName).insert(
          chunk.map((row) => ({ companyId, contactListId: id, name: row.name, number: row.number, email: row.email, createdAt: now, updatedAt: now })),
        );
      }
      for (const { row, email } of steps.updates) {
        await trx(ContactListItem.tableName).where({ companyId, contactListId: id, number: row.number }).update({ name: row.name, email, updatedAt: now });
      }
      return steps;
    };

    const steps = dryRun ? await plan(this.app.db) : await this.app.db.transaction(apply);
    if (!dryRun && steps.creates.length + steps.updates.length > 0) {
      publishItem(this.app.realtime, companyId, { action: 'reload', contactListId: id });
      if (steps.creates.length > 0) await this.check.start(companyId, id);
      await this.announceList(companyId, id, 'update');
    }

    const actionOf = new Map<number, ContactListImportReport['rows'][number]['action']>([
      ...steps.creates.map((c) => [c.row, 'create'] as const),
      ...steps.updates.map((u) => [u.row.row, 'update'] as const),
      ...steps.unchanged.map((c) => [c.row, 'unchanged'] as const),
    ]);
    return {
      dryRun,
      create: steps.creates.length,
      update: steps.updates.length,
      unchanged: steps.unchanged.length,
      rejected: parsed.rejected,
      rows: parsed.sample.map((r) => ({ ...r, action: actionOf.get(r.row) ?? 'rejected' })),
    };
  }

  // ---- helpers --------------------------------------------------------------------------------

  /** The list, locked for the transaction on PostgreSQL (SQLite has one writer anyway), or 404. */
  private async lockList(trx: Knex.Transaction, companyId: number, id: number): Promise<ContactList> {
    const query = ContactList.query(trx).findOne({ id, companyId });
    const list = await (isPostgres(trx) ? query.forUpdate() : query);
    if (!list) throw listNotFound();
    return list;
  }

  private async assertNumberFree(db: Knex, contactListId: number, number: string, exceptId?: number): Promise<void> {
    const q = ContactListItem.query(db).where({ contactListId, number }).select('id');
    if (exceptId !== undefined) q.whereNot('id', exceptId);
    if (await q.first()) throw numberTaken();
  }

  private async announceList(companyId: number, id: number, action: 'create' | 'update'): Promise<ContactListView> {
    const contactList = await loadListView(this.app.db, companyId, id);
    if (!contactList) throw listNotFound();
    publishList(this.app.realtime, companyId, { action, contactList });
    return contactList;
  }
}

/** Deleting is contacts-page:deleteContact: an admin's permission. */
function assertDeleter(actor: AuthUser): void {
  if (!isAdmin(actor)) throw new ForbiddenError();
}
