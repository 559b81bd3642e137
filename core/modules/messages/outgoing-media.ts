import path from 'node:path';
import type { MediaType } from '../../channels/driver.js';

/** The MIME type WhatsApp gets for each attachment extension (ATTACHMENT_EXTENSIONS). */
const MIME_BY_EXTENSION: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.mp3': 'audio/mpeg',
  '.ogg': 'audio/ogg',
  '.opus': 'audio/ogg',
  '.m4a': 'audio/mp4',
  '.aac': 'audio/aac',
  '.wav': 'audio/wav',
  '.amr': 'audio/amr',
  '.mp4': 'video/mp4',
  '.3gp': 'video/3gpp',
  '.mov': 'video/quicktime',
  '.webm': 'video/webm',
  '.pdf': 'application/pdf',
  '.txt': 'text/plain',
  '.csv': 'text/csv',
  '.doc': 'application/msword',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.xls': 'application/vnd.ms-excel',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.ppt': 'application/vnd.ms-powerpoint',
  '.pptx': 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  '.odt': 'application/vnd.oasis.opendocument.text',
  '.ods': 'application/vnd.oasis.opendocument.spreadsheet',
  '.zip': 'application/zip',
};

/** Containers the browser records voice in; a voice note in webm is audio, not video. */
const VOICE_EXTENSIONS = new Set(['.webm', '.ogg', '.opus', '.mp3', '.m4a', '.aac', '.wav', '.amr']);

/** WhatsApp's own voice-note type (Ogg/Opus) is named with its codec; phones check it. */
const VOICE_NOTE_MIME: Record<string, string> = { '.ogg': 'audio/ogg; codecs=opus', '.opus': 'audio/ogg; codecs=opus', '.webm': 'audio/webm' };

export interface OutgoingMediaKind {
  mime: string;
  type: MediaType;
  ptt: boolean;
}

/**
 * How a file is sent, from its name (the type a client declares is not trusted): its MIME type and
 * the message kind. `voiceNote` (the composer's recording) makes an audio file a push-to-talk note.
 */
export function outgoingMediaKind(fileName: string, voiceNote = false): OutgoingMediaKind {
  const extension = path.extname(fileName).toLowerCase();
  if (voiceNote && VOICE_EXTENSIONS.has(extension)) {
    return { mime: VOICE_NOTE_MIME[extension] ?? MIME_BY_EXTENSION[extension]!, type: 'audio', ptt: true };
  }
  const mime = MIME_BY_EXTENSION[extension] ?? 'application/octet-stream';
  const major = mime.split('/')[0];
  const type: MediaType = major === 'image' || major === 'audio' || major === 'video' ? major : 'application';
  return { mime, type, ptt: false };
}
