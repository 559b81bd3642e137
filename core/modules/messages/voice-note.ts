import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Logger } from '../../logger.js';
import type { MediaSource } from '../../storage/media-storage.js';
import type { UploadedFile } from '../media/media-upload.js';
import { NotWebmOpusError, webmOpusToOgg } from '../media/webm-to-ogg.js';

/**
 * A recorded voice note as WhatsApp plays it. Chromium records Opus in WebM, which phones do not
 * play as a voice note: the same Opus audio is rewrapped in Ogg (no re-encoding) and named .ogg.
 * Other recordings go as they are. A recording is small (minutes of Opus are a few hundred KB,
 * and uploads are capped), so it is read whole.
 */
export async function asVoiceNote(file: UploadedFile, log: Logger): Promise<{ name: string; source: MediaSource }> {
  if (path.extname(file.name).toLowerCase() !== '.webm') return { name: file.name, source: file };
  try {
    const ogg = webmOpusToOgg(await readFile(file.path));
    return { name: `${path.basename(file.name, path.extname(file.name))}.ogg`, source: Readable.from(ogg) };
  } catch (err) {
    if (!(err instanceof NotWebmOpusError)) throw err;
    log.info({ err, file: file.name }, 'voice note is not WebM/Opus: sent as recorded');
    return { name: file.name, source: file };
  }
}
