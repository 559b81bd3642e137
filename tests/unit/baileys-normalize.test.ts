import { BufferJSON, proto, type WAMessage } from '@whiskeysockets/baileys';
import { describe, expect, it } from 'vitest';
import {
  identify,
  lidPairOfContact,
  lidPairOfMapping,
  lidPairsOfKey,
  messageJson,
  normalizeCall,
  normalizeContact,
  normalizeMessage,
  normalizeUpdate,
  type NormalizeContext,
} from '../../core/channels/baileys/normalize.js';
import { canonicalNumber, isGroupId, numberForms } from '../../core/channels/baileys/phone.js';
import type { NormalizedMessage } from '../../core/channels/driver.js';

// Messages are built with Baileys' own protobuf classes, the way they come off the socket.
const CUSTOMER = '5511987654321@s.whatsapp.net';
const SENT_AT = 1_767_225_600; // 2026-01-01T00:00:00Z
const known: Record<string, string> = { '201234567890123': '5521998765432' };
const context: NormalizeContext = { pnForLid: (lid) => known[lid], ownNumber: '5511900000000' };

function waMessage(message: Record<string, unknown> | null, key: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): WAMessage {
  const { remoteJidAlt, participantAlt, ...protoKey } = key;
  const msg = proto.WebMessageInfo.fromObject({
    key: { remoteJid: CUSTOMER, fromMe: false, id: '3EB0A1B2C3D4E5F6', ...protoKey },
    messageTimestamp: SENT_AT,
    pushName: 'Maria Silva',
    ...(message ? { message } : {}),
    ...extra,
  }) as WAMessage;
  // Baileys 7 adds the alternative JIDs to the key; they are not protobuf fields.
  Object.assign(msg.key, remoteJidAlt ? { remoteJidAlt } : {}, participantAlt ? { participantAlt } : {});
  return msg;
}

function messageOf(msg: WAMessage, ctx: NormalizeContext = context): NormalizedMessage {
  const result = normalizeMessage(msg, ctx);
  if (result?.event.type !== 'message') throw new Error(`expected a message, got ${JSON.stringify(result?.event)}`);
  return result.event.message;
}

const media = { url: 'https://mmg.whatsapp.net/x', mediaKey: Buffer.from('key'), directPath: '/v/t62/x', fileLength: 2048 };

describe('Baileys message normalization', () => {
  it('reads a plain conversation from a person', () => {
    const msg = waMessage({ conversation: 'Bom dia!' });
    expect(messageOf(msg)).toMatchObject({
      id: '3EB0A1B2C3D4E5F6',
      chatId: '5511987654321',
      isGroup: false,
      fromMe: false,
      from: { number: '5511987654321', name: 'Maria Silva' },
      body: 'Bom dia!',
      timestamp: '2026-01-01T00:00:00.000Z',
    });
    expect(normalizeMessage(msg, context)?.download).toBeUndefined();
  });

  it('keeps the raw message as JSON data: bytes as BufferJSON, the Long timestamp as a number, the whole key', () => {
    const msg = waMessage({ imageMessage: { ...media, mimetype: 'image/jpeg' } }, { remoteJid: '99988877766655@lid', remoteJidAlt: CUSTOMER });
    const raw = messageOf(msg).raw as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- reading a JSON tree
    expect(JSON.parse(JSON.stringify(raw))).toEqual(raw);
    expect(raw.messageTimestamp).toBe(SENT_AT);
    expect(raw.key).toEqual({ remoteJid: '99988877766655@lid', remoteJidAlt: CUSTOMER, fromMe: false, id: '3EB0A1B2C3D4E5F6' });
    expect(raw.message.imageMessage.mediaKey).toEqual({ type: 'Buffer', data: Buffer.from('key').toString('base64') });
  });

  it('writes messages as JSON that revives into the same protobuf', () => {
    const msg = waMessage({ protocolMessage: { type: proto.Message.ProtocolMessage.Type.REVOKE, key: { id: 'X' } }, imageMessage: media });
    const revived = JSON.parse(messageJson(msg), BufferJSON.reviver) as WAMessage;
    expect(revived.message?.protocolMessage?.type).toBe(proto.Message.ProtocolMessage.Type.REVOKE);
    expect(Buffer.from(proto.Message.encode(revived.message!).finish())).toEqual(Buffer.from(proto.Message.encode(msg.message!).finish()));
  });

  it('gives a Brazilian mobile written without its ninth digit the 9-digit number', () => {
    const msg = waMessage({ conversation: 'oi' }, { remoteJid: '551187654321@s.whatsapp.net' });
    expect(messageOf(msg)).toMatchObject({ chatId: '5511987654321', from: { number: '5511987654321' } });
  });

  it('reads extended text with the id of the message it quotes', () => {
    const msg = waMessage({ extendedTextMessage: { text: 'Sim, pode ser', contextInfo: { stanzaId: 'QUOTED-ID', participant: CUSTOMER } } });
    expect(messageOf(msg)).toMatchObject({ body: 'Sim, pode ser', quotedId: 'QUOTED-ID' });
  });

  it('describes an image for download, with its caption as body', () => {
    const result = normalizeMessage(waMessage({ imageMessage: { ...media, mimetype: 'image/jpeg', caption: 'Comprovante' } }), context);
    expect(result?.event).toMatchObject({ type: 'message', message: { mediaType: 'image', body: 'Comprovante' } });
    expect(result?.download).toEqual({ mimeType: 'image/jpeg', fileName: '3EB0A1B2C3D4E5F6.jpg' });
  });

  it('reads a voice note as audio', () => {
    const result = normalizeMessage(waMessage({ audioMessage: { ...media, mimetype: 'audio/ogg; codecs=opus', ptt: true, seconds: 7 } }), context);
    expect(result?.event).toMatchObject({ message: { mediaType: 'audio', body: '' } });
    expect(result?.download).toEqual({ mimeType: 'audio/ogg; codecs=opus', fileName: '3EB0A1B2C3D4E5F6.ogg' });
  });

  it('reads a video, quoting another message', () => {
    const result = normalizeMessage(
      waMessage({ videoMessage: { ...media, mimetype: 'video/mp4', caption: 'olha', contextInfo: { stanzaId: 'Q2' } } }),
      context,
    );
    expect(result?.event).toMatchObject({ message: { mediaType: 'video', body: 'olha', quotedId: 'Q2' } });
    expect(result?.download?.fileName).toBe('3EB0A1B2C3D4E5F6.mp4');
  });

  it('reads a document by its file name, with or without a caption', () => {
    const doc = { ...media, mimetype: 'application/pdf', fileName: 'Boleto março.pdf' };
    const plain = normalizeMessage(waMessage({ documentMessage: doc }), context);
    expect(plain?.event).toMatchObject({ message: { mediaType: 'application', body: 'Boleto março.pdf' } });
    expect(plain?.download).toEqual({ mimeType: 'application/pdf', fileName: 'Boleto março.pdf' });
    const captioned = normalizeMessage(
      waMessage({ documentWithCaptionMessage: { message: { documentMessage: { ...doc, caption: 'Segue o boleto' } } } }),
      context,
    );
    expect(captioned?.event).toMatchObject({ message: { mediaType: 'application', body: 'Segue o boleto' } });
  });

  it('reads a sticker as webp media', () => {
    const result = normalizeMessage(waMessage({ stickerMessage: { ...media, mimetype: 'image/webp' } }), context);
    expect(result?.event).toMatchObject({ message: { mediaType: 'sticker' } });
    expect(result?.download?.fileName).toBe('3EB0A1B2C3D4E5F6.webp');
  });

  it('reads a location with its coordinates', () => {
    const msg = waMessage({ locationMessage: { degreesLatitude: -23.5505, degreesLongitude: -46.6333, name: 'Loja Centro', address: 'Praça da Sé' } });
    expect(messageOf(msg)).toMatchObject({
      mediaType: 'locationMessage',
      body: 'Loja Centro - Praça da Sé',
      location: { latitude: -23.5505, longitude: -46.6333, name: 'Loja Centro', address: 'Praça da Sé' },
    });
    const pin = messageOf(waMessage({ locationMessage: { degreesLatitude: 1.5, degreesLongitude: 2.5 } }));
    expect(pin.body).toBe('https://maps.google.com/maps?q=1.5,2.5');
  });

  it('reads one contact card and a list of cards as vcard', () => {
    const vcard = 'BEGIN:VCARD\nVERSION:3.0\nFN:João\nTEL;waid=5511912345678:+55 11 91234-5678\nEND:VCARD';
    expect(messageOf(waMessage({ contactMessage: { displayName: 'João', vcard } }))).toMatchObject({ mediaType: 'vcard', body: 'João', vcard });
    const list = messageOf(
      waMessage({ contactsArrayMessage: { displayName: '2 contatos', contacts: [{ displayName: 'João', vcard }, { displayName: 'Ana', vcard: 'BEGIN:VCARD\nFN:Ana\nEND:VCARD' }] } }),
    );
    expect(list).toMatchObject({ mediaType: 'vcard', body: 'João, Ana', vcard: `${vcard}\nBEGIN:VCARD\nFN:Ana\nEND:VCARD` });
  });

  it('unwraps disappearing and view-once envelopes', () => {
    expect(messageOf(waMessage({ ephemeralMessage: { message: { extendedTextMessage: { text: 'some em 24h' } } } })).body).toBe('some em 24h');
    const once = normalizeMessage(waMessage({ viewOnceMessageV2: { message: { imageMessage: { ...media, mimetype: 'image/jpeg', viewOnce: true } } } }), context);
    expect(once?.event).toMatchObject({ message: { mediaType: 'image' } });
    expect(once?.download).toBeDefined();
  });

  it('turns a revoke into a revoke event for the deleted message', () => {
    const msg = waMessage({ protocolMessage: { type: proto.Message.ProtocolMessage.Type.REVOKE, key: { remoteJid: CUSTOMER, id: 'GONE-ID' } } });
    expect(normalizeMessage(msg, context)).toEqual({ event: { type: 'revoke', id: 'GONE-ID' } });
  });

  it('turns an edit into an edit event, in the protocol form and the edited-message envelope', () => {
    const edit = {
      type: proto.Message.ProtocolMessage.Type.MESSAGE_EDIT,
      key: { remoteJid: CUSTOMER, id: 'EDITED-ID' },
      editedMessage: { conversation: 'texto corrigido' },
    };
    expect(normalizeMessage(waMessage({ protocolMessage: edit }), context)).toEqual({ event: { type: 'edit', id: 'EDITED-ID', body: 'texto corrigido' } });
    const wrapped = waMessage({ editedMessage: { message: { protocolMessage: { ...edit, editedMessage: { extendedTextMessage: { text: 'de novo' } } } } } });
    expect(normalizeMessage(wrapped, context)).toEqual({ event: { type: 'edit', id: 'EDITED-ID', body: 'de novo' } });
  });

  it('reads a call log', () => {
    const msg = waMessage({ callLogMesssage: { isVideo: false, callOutcome: proto.Message.CallLogMessage.CallOutcome.MISSED } });
    expect(messageOf(msg)).toMatchObject({ mediaType: 'call_log', body: '' });
  });

  it("marks a message sent from the connected phone fromMe, the chat's person as from", () => {
    const msg = waMessage({ conversation: 'Já enviei' }, { fromMe: true });
    expect(messageOf(msg)).toMatchObject({ fromMe: true, chatId: '5511987654321', from: { number: '5511987654321', name: '' } });
  });

  it('flags group messages, with the participant as author', () => {
    const key = { remoteJid: '120363025246125888@g.us', participant: '5511912345678@s.whatsapp.net' };
    expect(messageOf(waMessage({ conversation: 'oi grupo' }, key))).toMatchObject({
      isGroup: true,
      chatId: '120363025246125888',
      from: { number: '5511912345678', name: 'Maria Silva' },
    });
    const own = messageOf(waMessage({ conversation: 'eu' }, { ...key, participant: undefined, fromMe: true }));
    expect(own).toMatchObject({ isGroup: true, fromMe: true, from: { number: '5511900000000', name: '' } });
    const lidAuthor = messageOf(waMessage({ conversation: 'oi' }, { ...key, participant: '88877766655544@lid', participantAlt: '5531987654321@s.whatsapp.net' }));
    expect(lidAuthor.from).toEqual({ number: '5531987654321', lid: '88877766655544', name: 'Maria Silva' });
  });

  it('reports the phone number of a LID sender when the key or the map knows it', () => {
    const withAlt = waMessage({ conversation: 'a' }, { remoteJid: '99988877766655@lid', remoteJidAlt: '5511987654321@s.whatsapp.net' });
    expect(messageOf(withAlt)).toMatchObject({ chatId: '5511987654321', from: { number: '5511987654321', lid: '99988877766655' } });
    const mapped = waMessage({ conversation: 'b' }, { remoteJid: '201234567890123@lid' });
    expect(messageOf(mapped)).toMatchObject({ chatId: '5521998765432', from: { number: '5521998765432', lid: '201234567890123' } });
    const unknown = waMessage({ conversation: 'c' }, { remoteJid: '301234567890123@lid' });
    expect(messageOf(unknown)).toMatchObject({ chatId: '301234567890123', from: { number: '301234567890123', lid: '301234567890123' } });
  });

  it('drops status updates, broadcasts, newsletters, stubs, other protocol messages and reactions', () => {
    const dropped = [
      waMessage({ conversation: 'status' }, { remoteJid: 'status@broadcast', participant: CUSTOMER }),
      waMessage({ conversation: 'lista' }, { remoteJid: '1700000000@broadcast' }),
      waMessage({ conversation: 'canal' }, { remoteJid: '120363000000000000@newsletter' }),
      waMessage(null, {}, { messageStubType: proto.WebMessageInfo.StubType.GROUP_PARTICIPANT_ADD, messageStubParameters: [CUSTOMER] }),
      waMessage({ protocolMessage: { type: proto.Message.ProtocolMessage.Type.EPHEMERAL_SETTING, ephemeralExpiration: 86400 } }),
      waMessage({ reactionMessage: { key: { remoteJid: CUSTOMER, id: 'X' }, text: '👍' } }),
    ];
    for (const msg of dropped) expect(normalizeMessage(msg, context), JSON.stringify(msg.key)).toBeNull();
  });
});

describe('Baileys updates, calls and contacts', () => {
  const key = { remoteJid: CUSTOMER, id: 'SENT-1', fromMe: true };
  const { Status } = proto.WebMessageInfo;

  it('maps delivery receipts of own messages to acks 1 sent, 2 delivered, 3 read, 4 played', () => {
    const acks = [Status.SERVER_ACK, Status.DELIVERY_ACK, Status.READ, Status.PLAYED].map((status) => normalizeUpdate({ key, update: { status } }));
    expect(acks).toEqual([1, 2, 3, 4].map((ack) => ({ type: 'ack', id: 'SENT-1', ack })));
    expect(normalizeUpdate({ key, update: { status: Status.ERROR } })).toBeNull();
    expect(normalizeUpdate({ key: { ...key, fromMe: false }, update: { status: Status.READ } })).toBeNull();
    expect(normalizeUpdate({ key, update: { starred: true } })).toBeNull();
  });

  it('reports an offered call once, by the caller number', () => {
    const date = new Date('2026-01-01T12:00:00Z');
    const offer = { chatId: '77766655544433@lid', from: '77766655544433@lid', callerPn: '551187654321@s.whatsapp.net', id: 'CALL', date, status: 'offer' as const, offline: false };
    expect(normalizeCall(offer, context)).toEqual({ type: 'call', from: { number: '5511987654321', name: '' }, timestamp: '2026-01-01T12:00:00.000Z' });
    expect(normalizeCall({ ...offer, status: 'terminate' }, context)).toBeNull();
  });

  it('reports contacts with a name or a LID pairing', () => {
    expect(normalizeContact({ id: '44455566677788@lid', phoneNumber: '5511987654321@s.whatsapp.net', notify: 'Maria' }, context)).toEqual({
      type: 'contact',
      number: '5511987654321',
      name: 'Maria',
      lid: '44455566677788',
    });
    expect(normalizeContact({ id: CUSTOMER, name: 'Maria (agenda)' }, context)).toEqual({ type: 'contact', number: '5511987654321', name: 'Maria (agenda)' });
    expect(normalizeContact({ id: CUSTOMER }, context)).toBeNull();
  });

  it('finds the LID pairs carried by keys, contacts and mapping updates', () => {
    expect(
      lidPairsOfKey({ remoteJid: '120363025246125888@g.us', participant: '88877766655544@lid', participantAlt: '5531987654321@s.whatsapp.net' }),
    ).toEqual([{ lid: '88877766655544', pn: '5531987654321' }]);
    expect(lidPairsOfKey({ remoteJid: '99988877766655@lid' })).toEqual([{ lid: '99988877766655', pn: undefined }]);
    expect(lidPairsOfKey({ remoteJid: CUSTOMER })).toEqual([]);
    expect(lidPairOfContact({ id: '1@lid', phoneNumber: '552@s.whatsapp.net' })).toEqual({ lid: '1', pn: '552' });
    expect(lidPairOfMapping({ lid: '123:4@lid', pn: '5511987654321@s.whatsapp.net' })).toEqual({ lid: '123', pn: '5511987654321' });
    expect(identify('5511987654321:12@s.whatsapp.net', undefined, context)).toEqual({ number: '5511987654321' });
  });
});

describe('phone numbers', () => {
  it('puts the ninth digit back on old-form Brazilian mobiles only', () => {
    expect(canonicalNumber('+55 (11) 8765-4321')).toBe('5511987654321');
    expect(canonicalNumber('5511987654321')).toBe('5511987654321');
    expect(canonicalNumber('551132654321')).toBe('551132654321'); // landline
    expect(canonicalNumber('14155550123')).toBe('14155550123');
    expect(numberForms('5511987654321')).toEqual(['5511987654321', '551187654321']);
    expect(numberForms('551132654321')).toEqual(['551132654321']);
  });

  it('tells group ids from phone numbers', () => {
    expect(isGroupId('120363025246125888')).toBe(true);
    expect(isGroupId('5511987654321-1600000000')).toBe(true);
    expect(isGroupId('5511987654321')).toBe(false);
  });
});
