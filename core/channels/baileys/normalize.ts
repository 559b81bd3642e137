import {
  BufferJSON,
  isHostedLidUser,
  isHostedPnUser,
  isJidBroadcast,
  isJidGroup,
  isJidNewsletter,
  isLidUser,
  isPnUser,
  normalizeMessageContent,
  proto,
  toNumber,
  type Contact,
  type WACallEvent,
  type WAMessage,
  type WAMessageKey,
  type WAMessageUpdate,
} from '@whiskeysockets/baileys';
import type { DriverEvent, MediaType, NormalizedMessage } from '../driver.js';
import { canonicalNumber, jidUser } from './phone.js';
import type { LidPair } from './lid-map.js';

/**
 * Baileys' messages and events turned into the driver contract's events. Pure functions: what they
 * need to know about the connection comes in a NormalizeContext, and media is only described here
 * (the driver downloads it).
 */

export interface NormalizeContext {
  /** The phone-number user a LID user stands for, when this connection has seen the pair. */
  pnForLid(lid: string): string | undefined;
  /** The connected number (digits): the author of own messages in groups. */
  ownNumber?: string;
}

/** Media a message carries, for the driver to download and store. */
export interface MediaToDownload {
  mimeType: string;
  fileName: string;
}

export interface NormalizedInbound {
  event: DriverEvent;
  download?: MediaToDownload;
}

/** Who a JID is: the phone number when known (else the LID's digits), and the LID when there is one. */
export interface Identity {
  number: string;
  lid?: string;
}

const isLid = (jid: string | null | undefined): jid is string => Boolean(isLidUser(jid ?? '') || isHostedLidUser(jid ?? ''));
const isPn = (jid: string | null | undefined): jid is string => Boolean(isPnUser(jid ?? '') || isHostedPnUser(jid ?? ''));

/**
 * A person from a JID and its alternative (Baileys 7 gives both when it knows them). When only the
 * LID is known, `number` holds the LID's digits and equals `lid`: the pipeline can tell, and a later
 * `contact` event brings the number.
 */
export function identify(jid: string | null | undefined, alt: string | null | undefined, context: NormalizeContext): Identity | undefined {
  const lid = jidUser([jid, alt].find(isLid));
  const pn = jidUser([jid, alt].find(isPn)) ?? (lid ? context.pnForLid(lid) : undefined);
  const number = pn ? canonicalNumber(pn) : lid;
  if (!number) return undefined;
  return lid ? { number, lid } : { number };
}

/** The LID ↔ phone pairs a message key reveals (chat and, in groups, participant). */
export function lidPairsOfKey(key: WAMessageKey): LidPair[] {
  const pairs: LidPair[] = [];
  for (const [jid, alt] of [
    [key.remoteJid, key.remoteJidAlt],
    [key.participant, key.participantAlt],
  ]) {
    const lid = jidUser([jid, alt].find(isLid));
    if (lid) pairs.push({ lid, pn: jidUser([jid, alt].find(isPn)) });
  }
  return pairs;
}

/** A pair as Baileys announces it in `lid-mapping.update` (JIDs or bare users). */
export function lidPairOfMapping(mapping: { lid: string; pn: string }): LidPair {
  const user = (value: string) => (value.includes('@') ? jidUser(value) : value);
  return { lid: user(mapping.lid) ?? '', pn: user(mapping.pn) };
}

/** The pair a contact carries, when it has its LID and its number. */
export function lidPairOfContact(contact: Partial<Contact>): LidPair | undefined {
  const lid = jidUser([contact.lid, contact.id].find(isLid));
  const pn = jidUser([contact.phoneNumber, contact.id].find(isPn));
  return lid && pn ? { lid, pn } : undefined;
}

/**
 * The JSON text of a message, revived by BufferJSON.reviver into one Baileys can encode again.
 * Protobuf's own toJSON would turn enums into names and drop the key's LID fields, so the message
 * is converted field by field (longs as numbers, bytes kept for the BufferJSON replacer) and its
 * key copied whole.
 */
export function messageJson(msg: WAMessage): string {
  const object = proto.WebMessageInfo.toObject(msg as proto.WebMessageInfo, { longs: Number });
  return JSON.stringify({ ...object, key: { ...msg.key } }, BufferJSON.replacer);
}

/** A message as plain JSON data (NormalizedMessage.raw, SentMessage.raw). */
export function rawOf(msg: WAMessage): unknown {
  return JSON.parse(messageJson(msg));
}

function timestampOf(seconds: WAMessage['messageTimestamp']): string {
  const value = toNumber(seconds ?? 0);
  return (value > 0 ? new Date(value * 1000) : new Date()).toISOString();
}

/** The text of a (possibly edited) message: plain text or a caption. */
function textOf(content: proto.IMessage | undefined): string {
  return (
    content?.conversation ??
    content?.extendedTextMessage?.text ??
    content?.imageMessage?.caption ??
    content?.videoMessage?.caption ??
    content?.documentMessage?.caption ??
    ''
  );
}

const EXTENSIONS: Record<string, string> = { jpeg: 'jpg', mpeg: 'mp3', quicktime: 'mov', plain: 'txt', 'x-m4a': 'm4a' };

function fileNameFor(id: string, mimeType: string): string {
  const subtype = (mimeType.split('/')[1] ?? 'bin').split(';')[0]!.trim();
  return `${id}.${EXTENSIONS[subtype] ?? (subtype.replace(/[^\w]+/g, '') || 'bin')}`;
}

interface Content {
  mediaType?: MediaType;
  body: string;
  quotedId?: string;
  download?: { mimeType: string; fileName?: string };
  location?: NormalizedMessage['location'];
  vcard?: string;
}

/** What a message says, by its type; undefined for types the inbox does not show. */
function contentOf(m: proto.IMessage): Content | undefined {
  if (m.conversation) return { body: m.conversation };
  if (m.extendedTextMessage) {
    return { body: m.extendedTextMessage.text ?? '', quotedId: m.extendedTextMessage.contextInfo?.stanzaId ?? undefined };
  }
  const media: [MediaType, proto.Message.IImageMessage | proto.Message.IVideoMessage | proto.Message.IAudioMessage | proto.Message.IDocumentMessage | proto.Message.IStickerMessage | null | undefined, string][] = [
    ['image', m.imageMessage, 'image/jpeg'],
    ['video', m.videoMessage ?? m.ptvMessage, 'video/mp4'],
    ['audio', m.audioMessage, 'audio/ogg'],
    ['application', m.documentMessage, 'application/octet-stream'],
    ['sticker', m.stickerMessage, 'image/webp'],
  ];
  for (const [mediaType, message, defaultMime] of media) {
    if (!message) continue;
    const fileName = 'fileName' in message ? (message.fileName ?? undefined) : undefined;
    const caption = 'caption' in message ? (message.caption ?? undefined) : undefined;
    return {
      mediaType,
      body: caption || fileName || '',
      quotedId: message.contextInfo?.stanzaId ?? undefined,
      download: { mimeType: message.mimetype || defaultMime, fileName },
    };
  }
  const place = m.locationMessage ?? m.liveLocationMessage;
  if (place) {
    const latitude = place.degreesLatitude ?? 0;
    const longitude = place.degreesLongitude ?? 0;
    const name = m.locationMessage?.name ?? undefined;
    const address = m.locationMessage?.address ?? undefined;
    return {
      mediaType: 'locationMessage',
      body: [name, address].filter(Boolean).join(' - ') || `https://maps.google.com/maps?q=${latitude},${longitude}`,
      quotedId: place.contextInfo?.stanzaId ?? undefined,
      location: { latitude, longitude, ...(name ? { name } : {}), ...(address ? { address } : {}) },
    };
  }
  const contacts = m.contactMessage ? [m.contactMessage] : (m.contactsArrayMessage?.contacts ?? []);
  if (contacts.length > 0) {
    return {
      mediaType: 'vcard',
      body: contacts.map((c) => c.displayName ?? '').filter(Boolean).join(', ') || m.contactsArrayMessage?.displayName || '',
      vcard: contacts.map((c) => c.vcard ?? '').filter(Boolean).join('\n'),
    };
  }
  if (m.callLogMesssage) return { mediaType: 'call_log', body: '' };
  return undefined;
}

/**
 * One Baileys message as a driver event: a `message` (with the media to download, if any), or the
 * `revoke` / `edit` it carries. Null for what the inbox ignores: status updates, broadcasts and
 * newsletters, protocol and stub messages, reactions and other unsupported types.
 */
export function normalizeMessage(msg: WAMessage, context: NormalizeContext): NormalizedInbound | null {
  const { key } = msg;
  const remoteJid = key.remoteJid;
  if (!remoteJid || !key.id || isJidBroadcast(remoteJid) || isJidNewsletter(remoteJid)) return null;
  // Unwraps ephemeral, view-once, document-with-caption and edited envelopes.
  const message = normalizeMessageContent(msg.message);
  if (!message) return null;

  const protocol = message.protocolMessage;
  if (protocol) {
    const target = protocol.key?.id;
    if (!target) return null;
    if (protocol.type === proto.Message.ProtocolMessage.Type.REVOKE) return { event: { type: 'revoke', id: target } };
    if (protocol.type === proto.Message.ProtocolMessage.Type.MESSAGE_EDIT) {
      return { event: { type: 'edit', id: target, body: textOf(normalizeMessageContent(protocol.editedMessage)) } };
    }
    return null;
  }

  const content = contentOf(message);
  if (!content) return null;
  const isGroup = Boolean(isJidGroup(remoteJid));
  const fromMe = Boolean(key.fromMe);
  const chat = isGroup ? { number: jidUser(remoteJid) ?? '' } : identify(remoteJid, key.remoteJidAlt, context);
  if (!chat?.number) return null;
  const name = fromMe ? '' : (msg.pushName ?? msg.verifiedBizName ?? '');
  let author: Identity | undefined = chat;
  if (isGroup) author = fromMe ? { number: context.ownNumber ?? '' } : identify(key.participant, key.participantAlt, context);
  if (!author) return null;

  const normalized: NormalizedMessage = {
    id: key.id,
    chatId: chat.number,
    isGroup,
    fromMe,
    from: { ...author, name },
    body: content.body,
    timestamp: timestampOf(msg.messageTimestamp),
    raw: rawOf(msg),
  };
  if (content.mediaType) normalized.mediaType = content.mediaType;
  if (content.quotedId) normalized.quotedId = content.quotedId;
  if (content.location) normalized.location = content.location;
  if (content.vcard !== undefined) normalized.vcard = content.vcard;
  const download = content.download && {
    mimeType: content.download.mimeType,
    fileName: content.download.fileName || fileNameFor(key.id, content.download.mimeType),
  };
  return download ? { event: { type: 'message', message: normalized }, download } : { event: { type: 'message', message: normalized } };
}

/**
 * Delivery progress of an own message. Baileys counts PENDING 1, SERVER_ACK 2, DELIVERY_ACK 3,
 * READ 4, PLAYED 5; Atende counts 1 sent, 2 delivered, 3 read, 4 played, so one is taken off.
 * ERROR carries no tick and gives no event.
 */
export function normalizeUpdate({ key, update }: WAMessageUpdate): DriverEvent | null {
  const status = update.status;
  if (!key.id || !key.fromMe || status === null || status === undefined || status === proto.WebMessageInfo.Status.ERROR) return null;
  return { type: 'ack', id: key.id, ack: (status - 1) as 0 | 1 | 2 | 3 | 4 };
}

/** An incoming call, once, when it is offered. */
export function normalizeCall(call: WACallEvent, context: NormalizeContext): DriverEvent | null {
  if (call.status !== 'offer' || call.isGroup) return null;
  const caller = identify(call.from, call.callerPn, context);
  if (!caller) return null;
  return { type: 'call', from: { number: caller.number, name: '' }, timestamp: call.date.toISOString() };
}

/** A person's name or LID pairing learned from the address book or the server. */
export function normalizeContact(contact: Partial<Contact>, context: NormalizeContext): DriverEvent | null {
  const pair = lidPairOfContact(contact);
  const person = pair ? identify(`${pair.pn}@s.whatsapp.net`, `${pair.lid}@lid`, context) : identify(contact.id, contact.phoneNumber, context);
  const name = contact.name || contact.notify || contact.verifiedName || undefined;
  if (!person || (!name && !pair)) return null;
  return { type: 'contact', number: person.number, ...(name ? { name } : {}), ...(person.lid ? { lid: person.lid } : {}) };
}
