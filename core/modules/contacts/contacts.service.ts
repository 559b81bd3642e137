import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { QueryBuilder } from 'objection';
import { z } from 'zod';
import type { Infrastructure } from '../../infrastructure.js';
import type { ContactDetail, ContactView, ImportReportView as ImportReport } from '../../contract/views.js';
import type { AuthUser } from '../../auth/auth-user.js';
import { isAdmin } from '../../auth/auth-user.js';
import type { SessionManager } from '../../channels/session-manager.js';
import { uniqueOr } from '../../db/unique-violation.js';
import { AppError, ConflictError, ForbiddenError, NotFoundError } from '../../errors.js';
import { Events } from '../../events/event-bus.js';
import { validate } from '../../http/validate.js';
import type { SettingsService } from '../settings/settings.service.js';
import { Whatsapp } from '../whatsapp/whatsapp.model.js';
import { Contact, ContactCustomField } from './contact.model.js';
import { checkRows, planImport, readTable, toCsv } from './contacts-file.js';
import { nextDay, zonedDayStart } from '../../time/zoned-time.js';
import {
  CONTACTS_PAGE_SIZE,
  contactNumber,
  stripNumber,
  type CreateContactInput,
  type ListContactsQuery,
  type UpdateContactInput,
} from './contacts.schema.js';
import { likePattern } from '../../db/like-pattern.js';
import { ErrorCode } from '../../contract/error-codes.js';


export type { ContactDetail, ContactView };

type ContactFrame = { action: 'create' | 'update'; contact: ContactView } | { action: 'delete'; contactId: number } | { action: 'import'; created: number; updated: number };

/** Rows written per statement: well under SQLite's and PostgreSQL's bound-parameter limits. */
const INSERT_CHUNK = 200;
/** Numbers looked up per query. */
const LOOKUP_CHUNK = 500;

const numberOnly = z.object({ number: contactNumber });

function duplicated(): ConflictError {
  return new ConflictError(ErrorCode.ERR_DUPLICATED_CONTACT, 'A contact with this number already exists');
}

export function toContactView(contact: Contact): ContactView {
  return {
    id: contact.id,
    uuid: contact.uuid,
    companyId: contact.companyId,
    name: contact.name,
    number: contact.number,
    email: contact.email,
    profilePicUrl: contact.profilePicUrl,
    isGroup: contact.isGroup,
    whatsappId: contact.whatsappId,
    createdAt: contact.createdAt,
    updatedAt: contact.updatedAt,
  };
}

function toDetail(contact: Contact): ContactDetail {
  return {
    ...toContactView(contact),
    extraInfo: (contact.extraInfo ?? []).map(({ id, name, value }) => ({ id, name, value })),
    whatsapp: contact.whatsapp ? { id: contact.whatsapp.id, name: contact.whatsapp.name } : null,
  };
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

const DETAIL_GRAPH = '[extraInfo(byId), whatsapp(summary)]';
const detailModifiers = {
  byId: (qb: QueryBuilder<ContactCustomField>) => qb.select('id', 'name', 'value').orderBy('id'),
  summary: (qb: QueryBuilder<Whatsapp>) => qb.select('whatsapps.id', 'whatsapps.name'),
};

/**
 * A company's contacts: the list, the hand-made create/edit/delete (numbers checked through a
 * connected WhatsApp session when there is one), the file import and the CSV export.
 */
export class ContactsService {
  constructor(
    private readonly infra: Infrastructure,
    private readonly deps: { sessions: Pick<SessionManager, 'commandsFor'>; settings: Pick<SettingsService, 'get'> },
  ) {}

  /** GET /contacts: search over name, number and e-mail; created-on filters in the company's time zone. */
  async list(actor: AuthUser, query: ListContactsQuery): Promise<{ contacts: ContactView[]; count: number; hasMore: boolean }> {
    const db = this.infra.db;
    const range = await this.createdRange(actor.companyId, query);
    const filtered = () => {
      const q = Contact.query(db).where('companyId', actor.companyId);
      if (query.searchParam) {
        const like = likePattern(query.searchParam);
        const digits = stripNumber(query.searchParam);
        q.where((w) => {
          w.whereRaw("lower(??) like ? escape '!'", ['name', like])
            .orWhereRaw("lower(??) like ? escape '!'", ['email', like])
            .orWhereRaw("?? like ? escape '!'", ['number', like]);
          // '(11) 9876' finds 5511987…: numbers are stored as digits only.
          if (/^\d+$/.test(digits) && digits !== query.searchParam) w.orWhereRaw("?? like ? escape '!'", ['number', likePattern(digits)]);
        });
      }
      if (range.from) q.where('createdAt', '>=', range.from);
      if (range.to) q.where('createdAt', '<', range.to);
      return q;
    };
    const offset = (query.pageNumber - 1) * CONTACTS_PAGE_SIZE;
    const [contacts, count] = await Promise.all([
      filtered().orderBy('name').orderBy('id').limit(CONTACTS_PAGE_SIZE).offset(offset),
      filtered().resultSize(),
    ]);
    return { contacts: contacts.map(toContactView), count, hasMore: offset + contacts.length < count };
  }

  /** GET /contacts/list: every contact of a company (id, name, number) for pickers; another company's for super users only. */
  async listAll(actor: AuthUser, companyId = actor.companyId): Promise<{ id: number; name: string; number: string }[]> {
    if (companyId !== actor.companyId && !actor.super) throw new ForbiddenError();
    return this.infra.db('contacts').where('companyId', companyId).select('id', 'name', 'number').orderBy('name').orderBy('id');
  }

  async show(actor: AuthUser, id: number): Promise<ContactDetail> {
    return toDetail(await this.loadDetail(this.infra.db, actor.companyId, id));
  }

  /** POST /contacts: the number checked through WhatsApp when a session is connected, unique in the company. */
  async create(actor: AuthUser, input: CreateContactInput): Promise<ContactDetail> {
    const companyId = actor.companyId;
    const number = await this.checkedNumber(companyId, input.number);
    const contact = await this.infra.db.transaction(async (trx) => {
      await this.assertNumberFree(trx, companyId, number);
      const row = await uniqueOr(
        () =>
          Contact.query(trx).insert({
            companyId,
            uuid: randomUUID(),
            name: input.name,
            number,
            email: input.email,
            profilePicUrl: '',
            isGroup: false,
            whatsappId: null,
          }),
        duplicated,
      );
      await this.replaceExtraInfo(trx, companyId, row.id, input.extraInfo);
      return this.loadDetail(trx, companyId, row.id);
    });
    this.publish(companyId, { action: 'create', contact: toContactView(contact) });
    return toDetail(contact);
  }

  /** PUT /contacts/:id: a changed number is checked again; extraInfo, when sent, replaces the stored fields. */
  async update(actor: AuthUser, id: number, input: UpdateContactInput): Promise<ContactDetail> {
    const companyId = actor.companyId;
    const current = await this.loadDetail(this.infra.db, companyId, id);
    const number = await this.changedNumber(companyId, current.number, input.number);
    const contact = await this.infra.db.transaction(async (trx) => {
      if (number !== undefined) await this.assertNumberFree(trx, companyId, number, id);
      await uniqueOr(
        () =>
          Contact.query(trx)
            .findById(id)
            .patch({
              ...(input.name !== undefined && { name: input.name }),
              ...(number !== undefined && { number }),
              ...(input.email !== undefined && { email: input.email }),
            }),
        duplicated,
      );
      if (input.extraInfo) await this.replaceExtraInfo(trx, companyId, id, input.extraInfo);
      return this.loadDetail(trx, companyId, id);
    });
    this.publish(companyId, { action: 'update', contact: toContactView(contact) });
    return toDetail(contact);
  }

  /** DELETE /contacts/:id: contacts-page:deleteContact, an admin's permission. */
  async remove(actor: AuthUser, id: number): Promise<void> {
    if (!isAdmin(actor)) throw new ForbiddenError();
    const deleted = await Contact.query(this.infra.db).where({ companyId: actor.companyId, id }).delete();
    if (deleted === 0) throw new NotFoundError(ErrorCode.ERR_NO_CONTACT_FOUND);
    this.publish(actor.companyId, { action: 'delete', contactId: id });
  }

  // ---- file import and export ---------------------------------------------------------------

  /**
   * What importing this file would do (write = false) or does (write = true): new numbers are
   * created, known ones get the file's name (and e-mail, when the file has one), bad rows are
   * reported with their reason. Files never reach WhatsApp: their numbers pass the format rules
   * only, so a thousand rows import in moments. All rows are written in one transaction.
   */
  async importFile(actor: AuthUser, file: { data: Buffer; name: string }, write: boolean): Promise<ImportReport> {
    const companyId = actor.companyId;
    const parsed = checkRows(await readTable(file.data, file.name));
    const plan = async (db: Knex) => {
      const known = await this.knownNumbers(db, companyId, parsed.candidates.map((c) => c.number));
      return planImport(parsed.candidates, known);
    };

    // One upsert per chunk: a number created meanwhile by someone else is updated, never duplicated.
    const apply = async (trx: Knex.Transaction) => {
      const steps = await plan(trx);
      const now = new Date().toISOString();
      const writes = [...steps.creates.map((row) => ({ row, email: row.email })), ...steps.updates];
      for (const chunk of chunks(writes, INSERT_CHUNK)) {
        await trx('contacts')
          .insert(
            chunk.map(({ row, email }) => ({
              companyId,
              uuid: randomUUID(),
              name: row.name,
              number: row.number,
              email,
              profilePicUrl: '',
              isGroup: false,
              createdAt: now,
              updatedAt: now,
            })),
          )
          .onConflict(['companyId', 'number'])
          .merge(['name', 'email', 'updatedAt']);
      }
      return steps;
    };

    const steps = write ? await this.infra.db.transaction(apply) : await plan(this.infra.db);
    if (write && steps.creates.length + steps.updates.length > 0) {
      this.publish(companyId, { action: 'import', created: steps.creates.length, updated: steps.updates.length });
    }

    const actionOf = new Map<number, ImportReport['rows'][number]['action']>([
      ...steps.creates.map((c) => [c.row, 'create'] as const),
      ...steps.updates.map((u) => [u.row.row, 'update'] as const),
      ...steps.unchanged.map((c) => [c.row, 'unchanged'] as const),
    ]);
    return {
      create: steps.creates.length,
      update: steps.updates.length,
      unchanged: steps.unchanged.length,
      rejected: parsed.rejected,
      rows: parsed.sample.map((s) => ({ ...s, action: actionOf.get(s.row) ?? 'rejected' })),
    };
  }

  /** GET /contacts/export: contatos.csv of the company, by name. */
  async exportCsv(actor: AuthUser): Promise<string> {
    const rows: { name: string; number: string; email: string }[] = await this.infra
      .db('contacts')
      .where('companyId', actor.companyId)
      .select('name', 'number', 'email')
      .orderBy('name')
      .orderBy('id');
    return toCsv(rows);
  }

  /**
   * For plugins (campaign contact lists): each number as WhatsApp knows it (its canonical digits),
   * or null when it has no WhatsApp, asked of one connected session of the company (the default
   * connection first), in order. Answers null when no session is connected; a check that fails
   * midway throws 400 ERR_WAPP_CHECK_CONTACT. The caller batches: a call checks what it is given.
   * With `whatsappId`, only that connection of the company is asked.
   */
  async checkWhatsappNumbers(companyId: number, numbers: readonly string[], whatsappId?: number): Promise<(string | null)[] | null> {
    const connections = await Whatsapp.query(this.infra.db)
      .where('companyId', companyId)
      .modify((q) => (whatsappId === undefined ? q : q.where('id', whatsappId)))
      .select('id')
      .orderBy([{ column: 'isDefault', order: 'desc' }, { column: 'id' }]);
    for (const { id } of connections) {
      let driver;
      try {
        driver = await this.deps.sessions.commandsFor(id);
      } catch {
        continue; // not connected
      }
      const answers: (string | null)[] = [];
      for (const number of numbers) {
        try {
          const canonical = await driver.checkNumber(number);
          answers.push(canonical ? canonical.replace(/\D/g, '') : null);
        } catch (err) {
          this.infra.log.warn({ err, connectionId: id }, 'whatsapp number check failed');
          throw new AppError(ErrorCode.ERR_WAPP_CHECK_CONTACT, 400, 'Could not check the number on WhatsApp');
        }
      }
      return answers;
    }
    return null;
  }

  /**
   * For plugins (the external messages API): the contact of a number WhatsApp knows, created on
   * first use as a chat's first message creates it (named by its number), inside `trx`.
   */
  async contactForNumber(trx: Knex.Transaction, companyId: number, number: string, whatsappId: number): Promise<{ id: number; name: string; number: string }> {
    const { contact } = await upsertWhatsappContact(trx, { companyId, number, name: '', whatsappId, isGroup: false });
    return { id: contact.id, name: contact.name, number: contact.number };
  }

  /**
   * The company's people (not groups) with a ticket holding the tag (tags are put on tickets):
   * a campaign's audience when it names a tag list. Ordered by id.
   */
  async withTag(companyId: number, tagId: number): Promise<{ id: number; name: string; number: string; email: string }[]> {
    return this.infra
      .db('contacts')
      .where({ companyId, isGroup: false })
      .whereIn('id', this.infra.db('tickets').join('ticket_tags', 'ticket_tags.ticketId', 'tickets.id').where({ 'tickets.companyId': companyId, 'ticket_tags.tagId': tagId }).select('tickets.contactId'))
      .orderBy('id')
      .select('id', 'name', 'number', 'email');
  }

  // ---- helpers ------------------------------------------------------------------------------

  /**
   * The number as WhatsApp knows it, asked of the company's connected session (the default
   * connection first). With no session connected, the number is kept as typed (digits only):
   * contacts can be written down before WhatsApp is paired.
   */
  private async checkedNumber(companyId: number, number: string): Promise<string> {
    const answers = await this.checkWhatsappNumbers(companyId, [number]);
    if (!answers) return number;
    const [canonical] = answers;
    if (!canonical) throw new AppError(ErrorCode.ERR_WAPP_INVALID_CONTACT, 400, 'This is not a valid WhatsApp number');
    return canonical;
  }

  /** The new number of an edit, checked; undefined when the edit keeps the stored one. */
  private async changedNumber(companyId: number, current: string, raw: string | undefined): Promise<string | undefined> {
    if (raw === undefined || raw === current) return undefined;
    const { number } = validate(numberOnly, { number: raw });
    if (number === current) return undefined;
    return this.checkedNumber(companyId, number);
  }

  private async assertNumberFree(db: Knex, companyId: number, number: string, exceptId?: number): Promise<void> {
    const query = Contact.query(db).where({ companyId, number }).select('id');
    if (exceptId !== undefined) query.whereNot('id', exceptId);
    if (await query.first()) throw duplicated();
  }

  private async knownNumbers(db: Knex, companyId: number, numbers: string[]): Promise<Map<string, { name: string; email: string }>> {
    const known = new Map<string, { name: string; email: string }>();
    for (const chunk of chunks(numbers, LOOKUP_CHUNK)) {
      const rows: { number: string; name: string; email: string }[] = await db('contacts')
        .where('companyId', companyId)
        .whereIn('number', chunk)
        .select('number', 'name', 'email');
      for (const { number, ...rest } of rows) known.set(number, rest);
    }
    return known;
  }

  private async replaceExtraInfo(db: Knex, companyId: number, contactId: number, fields: { name: string; value: string }[]): Promise<void> {
    await ContactCustomField.query(db).where({ contactId }).delete();
    if (fields.length === 0) return;
    const now = new Date().toISOString();
    await db('contactCustomFields').insert(fields.map((f) => ({ companyId, contactId, name: f.name, value: f.value, createdAt: now, updatedAt: now })));
  }

  /** A contact of the company with its extra fields; another company's id is 404. */
  private async loadDetail(db: Knex, companyId: number, id: number): Promise<Contact> {
    const contact = await Contact.query(db).findOne({ companyId, id }).withGraphFetched(DETAIL_GRAPH).modifiers(detailModifiers);
    if (!contact) throw new NotFoundError(ErrorCode.ERR_NO_CONTACT_FOUND);
    return contact;
  }

  /** `date`, or `dateStart`..`dateEnd` (inclusive days), as UTC bounds of the company's days. */
  private async createdRange(companyId: number, query: ListContactsQuery): Promise<{ from?: string; to?: string }> {
    const first = query.date ?? query.dateStart;
    const last = query.date ?? query.dateEnd;
    if (!first && !last) return {};
    const timeZone = await this.deps.settings.get(companyId, 'timezone');
    return {
      from: first ? zonedDayStart(first, timeZone) : undefined,
      to: last ? zonedDayStart(nextDay(last), timeZone) : undefined,
    };
  }

  /** The live frame; a created or updated contact is also a domain event. */
  private publish(companyId: number, data: ContactFrame): void {
    this.infra.realtime.publish(companyId, `company-${companyId}-contact`, data);
    if (data.action === 'create') void this.infra.bus.emit(Events.contactCreated, companyId, { contact: data.contact });
    if (data.action === 'update') void this.infra.bus.emit(Events.contactUpdated, companyId, { contact: data.contact });
  }
}

// ---- contacts seen on WhatsApp (the inbound pipeline) ---------------------------------------

/** Names are stored up to the column's 100 characters. */
const NAME_MAX = 100;

/** A chat's person or group as a driver reported it. */
export interface WhatsappPeer {
  companyId: number;
  /** Canonical number (core/channels/phone.ts), or the group id. */
  number: string;
  /** The push name (or group subject); empty when unknown. */
  name: string;
  isGroup: boolean;
  /** The connection it wrote through, kept on a new contact. */
  whatsappId: number;
}

/** A name worth keeping: not empty and not just the number again. */
function knownName(name: string | undefined, number: string): string | undefined {
  const trimmed = name?.trim().slice(0, NAME_MAX);
  return trimmed && trimmed !== number ? trimmed : undefined;
}

/**
 * The contact of a WhatsApp chat, created on its first message: one per (company, number), the
 * unique index settling two writers racing. A new contact is named by its push name (its number
 * when there is none); a known one whose name is still its number takes the push name once one is
 * known, and a name given by a person is never overwritten. `changed`: created or renamed.
 */
export async function upsertWhatsappContact(
  db: Knex,
  peer: WhatsappPeer,
  /** The contact of the number as already read in this transaction (null: none); undefined: read it here. */
  known?: Contact | null,
): Promise<{ contact: Contact; created: boolean; changed: boolean }> {
  const { companyId, number } = peer;
  // Plain knex: the inbound pipeline asks this for every message.
  const byNumber = async () => {
    const row = (await db('contacts').where({ companyId, number }).first()) as Record<string, unknown> | undefined;
    return row && Contact.fromDatabaseJson(row);
  };
  const existing = known === undefined ? await byNumber() : (known ?? undefined);
  if (existing) return renamedWhatsappContact(db, existing, peer);
  const [made] = await createWhatsappContacts(db, [peer]);
  return { ...made!, changed: made!.created };
}

/**
 * A known contact after a message: its name, while it is still its number, becomes the push name
 * once one is known (a name given by a person is never overwritten). `changed`: renamed.
 */
export async function renamedWhatsappContact(db: Knex, existing: Contact, peer: WhatsappPeer): Promise<{ contact: Contact; created: false; changed: boolean }> {
  const name = knownName(peer.name, peer.number);
  if (!name || existing.name !== existing.number) return { contact: existing, created: false, changed: false };
  return { contact: await existing.$query(db).patchAndFetch({ name }), created: false, changed: true };
}

/** Numbers per insert and per read back: well under both databases' bound-parameter limits. */
const NEW_CONTACTS_CHUNK = 400;

/**
 * The contacts of chats not known yet (distinct numbers of one company each), by one insert and one
 * read per chunk: the unique index settles a writer racing us, whose contact is answered (created
 * false). Answers one per peer, in order.
 */
export async function createWhatsappContacts(db: Knex, peers: WhatsappPeer[]): Promise<{ contact: Contact; created: boolean }[]> {
  const now = new Date().toISOString();
  const uuids = peers.map(() => randomUUID());
  const found = new Map<string, Contact>();
  for (let i = 0; i < peers.length; i += NEW_CONTACTS_CHUNK) {
    const part = peers.slice(i, i + NEW_CONTACTS_CHUNK);
    const rows = part.map(({ companyId, number, name, isGroup, whatsappId }, k) => ({
      companyId,
      uuid: uuids[i + k],
      name: knownName(name, number) ?? number,
      number,
      email: '',
      profilePicUrl: '',
      isGroup,
      whatsappId,
      createdAt: now,
      updatedAt: now,
    }));
    await db('contacts').insert(rows).onConflict(['companyId', 'number']).ignore();
    for (const companyId of new Set(part.map((p) => p.companyId))) {
      const numbers = part.filter((p) => p.companyId === companyId).map((p) => p.number);
      const read = (await db('contacts').where({ companyId }).whereIn('number', numbers)) as Record<string, unknown>[];
      for (const row of read) {
        const contact = Contact.fromDatabaseJson(row) as Contact;
        found.set(`${companyId}:${contact.number}`, contact);
      }
    }
  }
  return peers.map(({ companyId, number }, k) => {
    const contact = found.get(`${companyId}:${number}`);
    if (!contact) throw new Error(`contact ${number} of company ${companyId} vanished while being created`);
    return { contact, created: contact.uuid === uuids[k] };
  });
}

/**
 * What a driver learned about a known contact (address book, profile): its name, only while the
 * stored one is just the number, and its picture. Never creates a contact; answers the contact
 * when something changed.
 */
export async function refreshWhatsappContact(
  db: Knex,
  companyId: number,
  number: string,
  seen: { name?: string; profilePicUrl?: string },
): Promise<Contact | undefined> {
  const contact = await Contact.query(db).findOne({ companyId, number });
  if (!contact) return undefined;
  const patch: Partial<Pick<Contact, 'name' | 'profilePicUrl'>> = {};
  const name = knownName(seen.name, number);
  if (name && contact.name === contact.number) patch.name = name;
  if (seen.profilePicUrl !== undefined && seen.profilePicUrl !== contact.profilePicUrl) patch.profilePicUrl = seen.profilePicUrl;
  if (Object.keys(patch).length === 0) return undefined;
  return contact.$query(db).patchAndFetch(patch);
}
