import { withoutNul } from '../db/without-nul.js';
import { displayFileName } from '../storage/media-storage.js';
import type { DriverEvent } from './driver.js';

/** Column sizes the provider's names must fit (contacts.name, messages.media_mime); file names fit through displayFileName. */
const NAME_MAX = 100;
const MIME_MAX = 100;

/** The provider's raw message is stored as escaped JSON: it may keep what the columns cannot. */
const RAW = new Set(['raw']);

/** At most `max` characters, never cutting a character made of two UTF-16 units in half. */
function fit(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max).replace(/[\uD800-\uDBFF]$/, '');
}

/**
 * A driver event as it can be stored on either database: no NUL anywhere, names cut to their
 * columns. Applied to every driver's events in one place, before they are journaled.
 */
export function storableEvent<T extends DriverEvent>(event: T): T {
  const clean = withoutNul(event, RAW);
  if (clean.type === 'message') {
    const { message } = clean;
    message.from.name = fit(message.from.name, NAME_MAX);
    if (message.media) {
      message.media.name = displayFileName(message.media.name);
      message.media.mimeType = fit(message.media.mimeType, MIME_MAX);
    }
  }
  if (clean.type === 'call') clean.from.name = fit(clean.from.name, NAME_MAX);
  if (clean.type === 'contact' && clean.name !== undefined) clean.name = fit(clean.name, NAME_MAX);
  return clean;
}
