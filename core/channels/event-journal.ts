import type { DriverEvent } from './driver.js';

/** The driver events that are journaled before they are published: those that become messages. */
export type JournaledEvent = Extract<DriverEvent, { type: 'message' | 'call' }>;

export function isJournaled(event: DriverEvent): event is JournaledEvent {
  return event.type === 'message' || event.type === 'call';
}

export interface JournalEntry {
  id: number;
  companyId: number;
  connectionId: number;
  event: JournaledEvent;
}

/**
 * Where the session manager writes an event before the driver may acknowledge it (implemented by
 * the inbound pipeline's journal, handed in by the container).
 */
export interface EventJournal {
  /** Resolves with the entry's id once it is committed. */
  append(connectionId: number, companyId: number, event: JournaledEvent): Promise<number>;
  /** A connection's entries not yet processed nor set aside, oldest first. */
  pending(connectionId: number): Promise<JournalEntry[]>;
}
