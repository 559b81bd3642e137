import type { Knex } from 'knex';
import {
  displayFileName,
  ErrorCode,
  isPostgres,
  likePattern,
  NotFoundError,
  ValidationError,
  zonedInstant,
  type AuthUser,
  type PluginApp,
  type UploadedFile,
} from 'atende/plugin';
import { assertAdmin } from '../assert-admin.js';
import { ContactList } from '../contact-lists/contact-list.model.js';
import { campaignEditable, MESSAGE_NUMBERS, type CampaignPage, type CampaignView } from './campaign.contract.js';
import { Campaign, type CampaignStatus } from './campaign.model.js';
import { loadCampaignView, publishCampaign, toCampaignViews } from './campaign-view.js';
import { CAMPAIGNS_PAGE_SIZE, type CreateCampaignInput, type ListCampaignsQuery, type UpdateCampaignInput } from './campaigns.schema.js';

/** What the files plugin offers that a campaign uses here (it imports nothing of that plugin). */
interface FileLists {
  exists(companyId: number, fileListId: number): Promise<boolean>;
}

type Changes = Omit<UpdateCampaignInput, 'scheduledAt'> & { scheduledAt?: string | null };

const notFound = () => new NotFoundError(ErrorCode.ERR_NO_CAMPAIGN_FOUND);
const notEditable = () =>
  new ValidationError('Only an inactive or cancelled campaign, or one scheduled more than 1 hour ahead, can be changed', undefined, ErrorCode.ERR_CAMPAIGN_NOT_EDITABLE);

function issue(path: string, message: string): ValidationError {
  return new ValidationError(`${path}: ${message}`, { issues: [{ path, message }] });
}

/**
 * The company's campaigns (spec: Campaigns; §4 its statuses and the editable rule). Every user of
 * the company reads them; admins create, change and delete them, as they save the campaign
 * settings: a campaign speaks for the company to a whole list. Status is the server's: a schedule
 * makes a campaign PROGRAMADA, none INATIVA; the dispatch does the rest. A change is refused
 * (400 ERR_CAMPAIGN_NOT_EDITABLE) unless the campaign is INATIVA, CANCELADA (it stays so) or
 * PROGRAMADA more than 1 hour ahead.
 */
export class CampaignsService {
  constructor(private readonly app: PluginApp) {}

  /** GET /campaigns: 20 a page, newest first, searched by name. */
  async list(actor: AuthUser, query: ListCampaignsQuery): Promise<CampaignPage> {
    const scoped = () => {
      const q = Campaign.query(this.app.db).where('companyId', actor.companyId);
      if (query.searchParam) q.whereRaw("lower(??) like ? escape '!'", ['name', likePattern(query.searchParam)]);
      return q;
    };
    const [rows, total] = await Promise.all([
      scoped()
        .orderBy('id', 'desc')
        .limit(CAMPAIGNS_PAGE_SIZE + 1)
        .offset((query.pageNumber - 1) * CAMPAIGNS_PAGE_SIZE),
      scoped().resultSize(),
    ]);
    return { records: await toCampaignViews(this.app, rows.slice(0, CAMPAIGNS_PAGE_SIZE)), count: total, hasMore: rows.length > CAMPAIGNS_PAGE_SIZE };
  }

  async show(actor: AuthUser, id: number): Promise<CampaignView> {
    const view = await loadCampaignView(this.app, actor.companyId, id);
    if (!view) throw notFound();
    return view;
  }

  /** POST /campaigns: INATIVA, or PROGRAMADA when it has a schedule. */
  async create(actor: AuthUser, input: CreateCampaignInput): Promise<CampaignView> {
    assertAdmin(actor);
    const companyId = actor.companyId;
    const changes = await this.resolve(actor, input, null);
    const values = { ...emptyCampaign(), ...changes, name: input.name };
    assertSchedulable(values);
    const campaign = await Campaign.query(this.app.db).insert({ companyId, ...values, status: values.scheduledAt ? 'PROGRAMADA' : 'INATIVA' });
    return this.announce(companyId, campaign.id, 'create');
  }

  /** PUT /campaigns/:id: the given fields, while the campaign may be changed. */
  async update(actor: AuthUser, id: number, input: UpdateCampaignInput): Promise<CampaignView> {
    assertAdmin(actor);
    const companyId = actor.companyId;
    // Checked before the transaction, which holds SQLite's one connection: the lookups use others.
    const changes = await this.resolve(actor, input, await this.lockEditable(this.app.db, companyId, id));
    await this.app.db.transaction(async (trx) => {
      const current = await this.lockEditable(trx, companyId, id);
      const merged = { ...current, ...changes };
      if (merged.contactListId && merged.tagListId) throw issue('tagListId', 'Choose a contact list or a tag, not both');
      assertSchedulable(merged);
      const status: CampaignStatus = current.status === 'CANCELADA' ? 'CANCELADA' : merged.scheduledAt ? 'PROGRAMADA' : 'INATIVA';
      await Campaign.query(trx).findById(id).patch({ ...changes, status });
    });
    return this.announce(companyId, id, 'update');
  }

  /** DELETE /campaigns/:id: not while it runs (cancel it first); its attachment goes with it. */
  async remove(actor: AuthUser, id: number): Promise<void> {
    assertAdmin(actor);
    const companyId = actor.companyId;
    const view = await this.show(actor, id);
    await this.app.db.transaction(async (trx) => {
      const current = await this.lock(trx, companyId, id);
      if (current.status === 'EM_ANDAMENTO') {
        throw new ValidationError('This campaign is running: cancel it before deleting it', undefined, ErrorCode.ERR_CAMPAIGN_RUNNING);
      }
      await Campaign.query(trx).deleteById(id);
    });
    if (view.mediaPath) await this.discard(companyId, view.mediaPath);
    publishCampaign(this.app, 'delete', view);
  }

  /** POST /campaigns/:id/media-upload: the one attachment, replacing the one it had. */
  async attach(actor: AuthUser, id: number, file: UploadedFile): Promise<CampaignView> {
    assertAdmin(actor);
    const companyId = actor.companyId;
    // Refused before the file is stored when the campaign is gone or may not change.
    await this.lockEditable(this.app.db, companyId, id);
    const stored = await this.app.services.media.save(companyId, file.name, file);
    try {
      return await this.replaceMedia(companyId, id, { mediaPath: stored.name, mediaName: displayFileName(file.name) });
    } catch (err) {
      await this.discard(companyId, stored.name);
      throw err;
    }
  }

  /** DELETE /campaigns/:id/media-upload */
  async detach(actor: AuthUser, id: number): Promise<CampaignView> {
    assertAdmin(actor);
    return this.replaceMedia(actor.companyId, id, { mediaPath: null, mediaName: null });
  }

  // ---- helpers --------------------------------------------------------------------------------

  /**
   * The input as columns: the schedule read on the company's clock (a new one must be ahead), and
   * each chosen connection, list, tag and file list checked to be the company's (404 otherwise).
   */
  private async resolve(actor: AuthUser, input: CreateCampaignInput | UpdateCampaignInput, current: Campaign | null): Promise<Changes> {
    const companyId = actor.companyId;
    // Absent fields stay as they are.
    const changes = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)) as Changes;
    if (input.scheduledAt) {
      const instant = zonedInstant(input.scheduledAt, await this.app.services.settings.get(companyId, 'timezone'));
      const unchanged = current?.scheduledAt && Date.parse(current.scheduledAt) === Date.parse(instant);
      if (!unchanged && Date.parse(instant) <= Date.now()) throw issue('scheduledAt', 'Must be in the future');
      changes.scheduledAt = instant;
    }
    if (input.whatsappId && (await this.app.services.whatsapps.summaries(companyId, [input.whatsappId])).length === 0) {
      throw new NotFoundError(ErrorCode.ERR_NO_WAPP_FOUND);
    }
    if (input.contactListId && !(await ContactList.query(this.app.db).findOne({ id: input.contactListId, companyId }))) {
      throw new NotFoundError(ErrorCode.ERR_NO_CONTACT_LIST_FOUND);
    }
    if (input.tagListId) await this.app.services.tags.show(actor, input.tagListId);
    if (input.fileListId) {
      const files = this.app.plugin<FileLists>('files');
      if (!files || !(await files.exists(companyId, input.fileListId))) throw new NotFoundError(ErrorCode.ERR_NO_FILE_LIST_FOUND);
    }
    return changes;
  }

  private async replaceMedia(companyId: number, id: number, media: Pick<Campaign, 'mediaPath' | 'mediaName'>): Promise<CampaignView> {
    const previous = await this.app.db.transaction(async (trx) => {
      const found = await this.lockEditable(trx, companyId, id);
      await Campaign.query(trx).findById(id).patch(media);
      return found.mediaPath;
    });
    if (previous && previous !== media.mediaPath) await this.discard(companyId, previous);
    return this.announce(companyId, id, 'update');
  }

  /** The campaign, locked for the transaction on PostgreSQL (the dispatch locks it too), or 404. */
  private async lock(db: Knex, companyId: number, id: number): Promise<Campaign> {
    const query = Campaign.query(db).findOne({ id, companyId });
    const campaign = await (isPostgres(db) ? query.forUpdate() : query);
    if (!campaign) throw notFound();
    return campaign;
  }

  private async lockEditable(db: Knex, companyId: number, id: number): Promise<Campaign> {
    const campaign = await this.lock(db, companyId, id);
    if (!campaignEditable(campaign)) throw notEditable();
    return campaign;
  }

  private async announce(companyId: number, id: number, action: 'create' | 'update'): Promise<CampaignView> {
    const view = await loadCampaignView(this.app, companyId, id);
    if (!view) throw notFound();
    publishCampaign(this.app, action, view);
    return view;
  }

  private async discard(companyId: number, stored: string): Promise<void> {
    await this.app.services.media.remove(companyId, stored).catch((err: unknown) => this.app.log.warn({ err, stored }, 'campaign attachment not removed'));
  }
}

function emptyCampaign() {
  return {
    confirmation: false,
    scheduledAt: null,
    whatsappId: null,
    contactListId: null,
    tagListId: null,
    fileListId: null,
    ...Object.fromEntries(MESSAGE_NUMBERS.flatMap((n) => [[`message${n}`, null], [`confirmationMessage${n}`, null]])),
  };
}

/** A scheduled campaign has something to send. */
function assertSchedulable(values: Partial<Record<string, unknown>> & { scheduledAt?: string | null }): void {
  if (!values.scheduledAt) return;
  if (MESSAGE_NUMBERS.some((n) => typeof values[`message${n}`] === 'string' && (values[`message${n}`] as string).trim() !== '')) return;
  throw new ValidationError('Write at least one message to schedule the campaign', { issues: [{ path: 'message1', message: 'Write at least one message to schedule the campaign' }] }, ErrorCode.ERR_CAMPAIGN_NO_MESSAGE);
}
