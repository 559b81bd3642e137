import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { PluginApp } from 'atende/plugin';
import type { CampaignsGate } from '../campaigns-gate.js';
import { ContactList, ContactListItem } from './contact-list.model.js';
import { loadListView, publishItem, publishList } from './contact-list-view.js';

/** The job that checks a list's numbers on WhatsApp; its data is `{ companyId, contactListId }`. */
export const CHECK_JOB = 'campaigns.contactList.check';
/** Numbers asked of WhatsApp at once; progress is announced after each batch. */
export const CHECK_BATCH = 50;
/** Batches one run of the job checks before it hands over to a new run (so no run holds a worker for long). */
const BATCHES_PER_RUN = 20;

/**
 * The WhatsApp check of a list's numbers. Items owe a check while their `whatsapp_checked_at` is
 * null (new, imported or with a changed number): the state is in the rows, so a crash loses
 * nothing and the job, run again, goes on where it was. Batches of 50 numbers through one
 * connected connection of the company, the event loop given back between batches, progress
 * published on the list's channel after each. No connected connection: the list shows why it
 * waits until a connection of the company connects (or POST /contact-lists/:id/check, an import).
 */
export class WhatsappCheck {
  constructor(
    private readonly app: PluginApp,
    private readonly gate: CampaignsGate,
  ) {}

  /** Queues a check of what the list owes (its waiting reason cleared). */
  async start(companyId: number, contactListId: number): Promise<void> {
    await ContactList.query(this.app.db).where({ id: contactListId, companyId }).patch({ checkWaiting: null });
    await this.app.jobs.now(CHECK_JOB, { companyId, contactListId });
  }

  /** A connection of the company connected: the lists that waited for one are checked now. */
  async resumeWaiting(companyId: number): Promise<void> {
    const waiting = await ContactList.query(this.app.db).where({ companyId, checkWaiting: 'no_connection' }).select('id');
    for (const { id } of waiting) await this.start(companyId, id);
  }

  async run(companyId: number, contactListId: number): Promise<void> {
    for (let batch = 0; batch < BATCHES_PER_RUN; batch += 1) {
      if (!(await this.gate.enabled(companyId))) return;
      const list = await ContactList.query(this.app.db).findOne({ id: contactListId, companyId });
      if (!list) return; // deleted meanwhile
      const items = await ContactListItem.query(this.app.db)
        .where({ companyId, contactListId })
        .whereNull('whatsappCheckedAt')
        .orderBy('id')
        .limit(CHECK_BATCH)
        .select('id', 'number');
      if (items.length === 0) return this.progress(companyId, contactListId);
      const answers = await this.app.services.contacts.checkWhatsappNumbers(
        companyId,
        items.map((i) => i.number),
      );
      if (!answers) {
        await ContactList.query(this.app.db).findById(contactListId).patch({ checkWaiting: 'no_connection' });
        return this.progress(companyId, contactListId);
      }
      const checked: { id: number; isWhatsappValid: boolean }[] = [];
      const now = new Date().toISOString();
      await this.app.db.transaction(async (trx) => {
        for (const [index, item] of items.entries()) {
          const isWhatsappValid = answers[index] !== null;
          // Only if the number is still the one checked: an edit meanwhile owes a new check.
          const changed = await ContactListItem.query(trx)
            .where({ id: item.id, number: item.number })
            .whereNull('whatsappCheckedAt')
            .patch({ isWhatsappValid, whatsappCheckedAt: now });
          if (changed > 0) checked.push({ id: item.id, isWhatsappValid });
        }
      });
      publishItem(this.app.realtime, companyId, { action: 'checked', contactListId, items: checked });
      await this.progress(companyId, contactListId);
      await yieldToLoop();
    }
    // More remain: a new run continues (the job engine's turn for other work comes first).
    await this.app.jobs.now(CHECK_JOB, { companyId, contactListId });
  }

  private async progress(companyId: number, contactListId: number): Promise<void> {
    const view = await loadListView(this.app.db, companyId, contactListId);
    if (view) publishList(this.app.realtime, companyId, { action: 'update', contactList: view });
  }
}
