/**
 * WebM/Opus (what Chromium's MediaRecorder writes) rewrapped as Ogg/Opus (what WhatsApp plays as a
 * voice note), without re-encoding: the Opus packets of the WebM's audio track are copied into Ogg
 * pages (RFC 7845) after an OpusHead (the track's CodecPrivate) and an OpusTags header.
 */

const ID = {
  segment: 0x18538067,
  tracks: 0x1654ae6b,
  trackEntry: 0xae,
  trackNumber: 0xd7,
  codecId: 0x86,
  codecPrivate: 0x63a2,
  cluster: 0x1f43b675,
  simpleBlock: 0xa3,
  blockGroup: 0xa0,
  block: 0xa1,
};
/** Elements whose children are read in line (their size is not needed, and may be "unknown" in a live recording). */
const CONTAINERS = new Set([ID.segment, ID.tracks, ID.trackEntry, ID.cluster, ID.blockGroup]);

export class NotWebmOpusError extends Error {}

interface Track {
  number?: number;
  codec?: string;
  codecPrivate?: Buffer;
}

/** An EBML variable-length integer at `at`: its value (marker bit kept for ids) and length; `unknown` when all value bits are set. */
function vint(data: Buffer, at: number, keepMarker: boolean): { value: number; length: number; unknown: boolean } {
  const first = data[at];
  if (first === undefined || first === 0) throw new NotWebmOpusError('bad EBML number');
  const length = Math.clz32(first) - 23;
  if (at + length > data.length) throw new NotWebmOpusError('truncated EBML number');
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i += 1) {
    value = value * 256 + data[at + i]!;
    allOnes &&= data[at + i] === 0xff;
  }
  return { value, length, unknown: !keepMarker && allOnes };
}

/** The Opus track's header and packets, in order. */
function opusPackets(webm: Buffer): { head: Buffer; packets: Buffer[] } {
  const tracks: Track[] = [];
  const blocks: { track: number; payload: Buffer }[] = [];
  for (let at = 0; at < webm.length; ) {
    const id = vint(webm, at, true);
    const size = vint(webm, at + id.length, false);
    const start = at + id.length + size.length;
    if (CONTAINERS.has(id.value)) {
      if (id.value === ID.trackEntry) tracks.push({});
      at = start;
      continue;
    }
    const end = size.unknown ? webm.length : Math.min(start + size.value, webm.length);
    const body = webm.subarray(start, end);
    const track = tracks[tracks.length - 1];
    if (id.value === ID.trackNumber && track) track.number = body.readUIntBE(0, body.length);
    else if (id.value === ID.codecId && track) track.codec = body.toString('latin1');
    else if (id.value === ID.codecPrivate && track) track.codecPrivate = body;
    else if (id.value === ID.simpleBlock || id.value === ID.block) {
      // Track number, a 16-bit relative timecode, flags; recorders do not lace audio.
      const number = vint(body, 0, false);
      if ((body[number.length + 2]! & 0x06) !== 0) throw new NotWebmOpusError('laced blocks are not supported');
      blocks.push({ track: number.value, payload: body.subarray(number.length + 3) });
    }
    at = end;
  }
  const opus = tracks.find((t) => t.codec === 'A_OPUS');
  if (!opus?.codecPrivate || opus.codecPrivate.subarray(0, 8).toString('latin1') !== 'OpusHead') throw new NotWebmOpusError('no Opus track');
  const packets = blocks.filter((b) => b.track === opus.number && b.payload.length > 0).map((b) => b.payload);
  if (packets.length === 0) throw new NotWebmOpusError('no audio');
  return { head: opus.codecPrivate, packets };
}

/** Samples (at 48 kHz) an Opus packet decodes to, from its TOC byte (RFC 6716 §3.1). */
export function opusPacketSamples(packet: Buffer): number {
  const toc = packet[0]!;
  const config = toc >> 3;
  const frameSamples = config < 12 ? [480, 960, 1920, 2880][config % 4]! : config < 16 ? [480, 960][config % 2]! : [120, 240, 480, 960][config % 4]!;
  const code = toc & 0x03;
  const frames = code === 0 ? 1 : code < 3 ? 2 : (packet[1] ?? 0) & 0x3f;
  return frames * frameSamples;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let crc = n << 24;
  for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x80000000 ? (crc << 1) ^ 0x04c11db7 : crc << 1;
  return crc >>> 0;
});

/** Ogg's CRC-32: polynomial 0x04c11db7, not reflected, initial value 0. */
export function oggCrc(data: Buffer): number {
  let crc = 0;
  for (const byte of data) crc = ((crc << 8) ^ CRC_TABLE[((crc >>> 24) ^ byte) & 0xff]!) >>> 0;
  return crc;
}

const BOS = 0x02;
const EOS = 0x04;

function oggPage(packets: Buffer[], flags: number, granule: bigint, serial: number, sequence: number): Buffer {
  const lacing = packets.flatMap((p) => [...Array<number>(Math.floor(p.length / 255)).fill(255), p.length % 255]);
  const header = Buffer.alloc(27 + lacing.length);
  header.write('OggS', 0, 'latin1');
  header[5] = flags;
  header.writeBigInt64LE(granule, 6);
  header.writeUInt32LE(serial, 14);
  header.writeUInt32LE(sequence, 18);
  header[26] = lacing.length;
  Buffer.from(lacing).copy(header, 27);
  const page = Buffer.concat([header, ...packets]);
  page.writeUInt32LE(oggCrc(page), 22);
  return page;
}

/** Lacing values a packet takes on a page. */
const segmentsOf = (packet: Buffer) => Math.floor(packet.length / 255) + 1;

/** The Ogg/Opus file of a WebM/Opus recording; NotWebmOpusError when it is not one. */
export function webmOpusToOgg(webm: Buffer, serial = 0x4154454e): Buffer {
  const { head, packets } = opusPackets(webm);
  const preSkip = head.readUInt16LE(10);
  const vendor = Buffer.from('Atende');
  const tags = Buffer.alloc(8 + 4 + vendor.length + 4);
  tags.write('OpusTags', 0, 'latin1');
  tags.writeUInt32LE(vendor.length, 8);
  vendor.copy(tags, 12);

  const pages = [oggPage([head], BOS, 0n, serial, 0), oggPage([tags], 0, 0n, serial, 1)];
  let granule = BigInt(preSkip);
  let page: Buffer[] = [];
  let segments = 0;
  const flush = (last: boolean) => {
    pages.push(oggPage(page, last ? EOS : 0, granule, serial, pages.length));
    page = [];
    segments = 0;
  };
  for (const packet of packets) {
    if (segments + segmentsOf(packet) > 255) flush(false);
    page.push(packet);
    segments += segmentsOf(packet);
    granule += BigInt(opusPacketSamples(packet));
  }
  flush(true);
  return Buffer.concat(pages);
}
