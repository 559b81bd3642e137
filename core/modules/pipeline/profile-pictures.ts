import type { Infrastructure } from '../../infrastructure.js';
import type { SessionManager } from '../../channels/session-manager.js';
import { Contact } from '../contacts/contact.model.js';
import type { TicketEvents } from '../tickets/ticket-events.js';
import { Cooldowns } from './memo.js';

/** A contact's picture is asked of WhatsApp at most this often. */
export const PICTURE_REFRESH_MS = 60 * 60_000;

/**
 * Profile pictures, fetched after the message is stored and never in its way: best effort through
 * the connection's driver, at most once per contact per hour, saved and announced when changed.
 */
export class ProfilePictures {
  private readonly cooldowns = new Cooldowns();
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly infra: Infrastructure,
    private readonly deps: { sessions: Pick<SessionManager, 'commandsFor'>; events: TicketEvents },
  ) {}

  /** Starts a refresh of the contact's picture when one is due; does not wait for it. */
  refresh(connectionId: number, contact: Contact): void {
    if (!this.cooldowns.take(`${contact.id}`, PICTURE_REFRESH_MS)) return;
    const run = this.fetch(connectionId, contact).catch((err: unknown) => {
      this.infra.log.debug({ err, contactId: contact.id }, 'profile picture not fetched');
    });
    this.inFlight.add(run);
    void run.finally(() => this.inFlight.delete(run));
  }

  /** Resolves when no look-up is running (shutdown, tests). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all(this.inFlight);
  }

  private async fetch(connectionId: number, contact: Contact): Promise<void> {
    let driver;
    try {
      driver = await this.deps.sessions.commandsFor(connectionId);
    } catch {
      return; // not connected: the next message after the cooldown tries again
    }
    const url = (await driver.profilePicture(contact.number)) ?? '';
    if (url === contact.profilePicUrl) return;
    const updated = await Contact.query(this.infra.db).patchAndFetchById(contact.id, { profilePicUrl: url });
    if (updated) this.deps.events.contact(updated);
  }
}
