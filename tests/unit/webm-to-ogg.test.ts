import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { NotWebmOpusError, oggCrc, opusPacketSamples, webmOpusToOgg } from '../../core/modules/media/webm-to-ogg.js';

/** Three seconds of chromium's fake microphone, recorded by its MediaRecorder as audio/webm;codecs=opus. */
const RECORDING = readFileSync(path.resolve('tests/fixtures/media/voice-note.webm'));
const CHROMIUM = process.env.ATENDE_CHROMIUM ?? '/usr/bin/chromium';

interface OggPage {
  flags: number;
  granule: bigint;
  serial: number;
  sequence: number;
  crcValid: boolean;
  packets: Buffer[];
}

/** Reads every page of an Ogg stream (packets do not span pages in what the remux writes). */
function oggPages(ogg: Buffer): OggPage[] {
  const pages: OggPage[] = [];
  for (let at = 0; at < ogg.length; ) {
    expect(ogg.toString('latin1', at, at + 4)).toBe('OggS');
    const count = ogg[at + 26]!;
    const lacing = [...ogg.subarray(at + 27, at + 27 + count)];
    const length = 27 + count + lacing.reduce((sum, n) => sum + n, 0);
    const page = Buffer.from(ogg.subarray(at, at + length));
    const crc = page.readUInt32LE(22);
    page.writeUInt32LE(0, 22);
    const packets: Buffer[] = [];
    let offset = at + 27 + count;
    let size = 0;
    for (const value of lacing) {
      size += value;
      if (value < 255) {
        packets.push(ogg.subarray(offset, offset + size));
        offset += size;
        size = 0;
      }
    }
    pages.push({ flags: ogg[at + 5]!, granule: ogg.readBigInt64LE(at + 6), serial: ogg.readUInt32LE(at + 14), sequence: ogg.readUInt32LE(at + 18), crcValid: oggCrc(page) === crc, packets });
    at += length;
  }
  return pages;
}

describe('WebM/Opus to Ogg/Opus', () => {
  it("rewraps a chromium recording's Opus packets in Ogg pages with OpusHead, OpusTags, valid CRCs and granule positions", () => {
    const pages = oggPages(webmOpusToOgg(RECORDING));
    expect(pages.every((p) => p.crcValid)).toBe(true);
    expect(pages.map((p) => p.sequence)).toEqual(pages.map((_, i) => i));
    expect(new Set(pages.map((p) => p.serial)).size).toBe(1);

    const [head, tags, ...audio] = pages;
    expect(head!.flags).toBe(0x02);
    expect(head!.packets).toHaveLength(1);
    expect(head!.packets[0]!.toString('latin1', 0, 8)).toBe('OpusHead');
    expect(tags!.packets[0]!.toString('latin1', 0, 8)).toBe('OpusTags');
    expect([head!.granule, tags!.granule]).toEqual([0n, 0n]);
    expect(audio.at(-1)!.flags).toBe(0x04);

    // Each page's granule is the pre-skip plus the samples of every packet up to its end.
    const preSkip = BigInt(head!.packets[0]!.readUInt16LE(10));
    let samples = preSkip;
    for (const page of audio) {
      samples += BigInt(page.packets.reduce((sum, p) => sum + opusPacketSamples(p), 0));
      expect(page.granule).toBe(samples);
    }
    const seconds = Number(samples - preSkip) / 48_000;
    expect(seconds).toBeGreaterThan(2.5);
    expect(seconds).toBeLessThan(3.5);
  });

  it('refuses a file that is not WebM/Opus', () => {
    expect(() => webmOpusToOgg(Buffer.from('%PDF-1.7 not a recording'))).toThrow(NotWebmOpusError);
    expect(() => webmOpusToOgg(RECORDING.subarray(0, 200))).toThrow(NotWebmOpusError);
  });

  it.skipIf(!existsSync(CHROMIUM))('chromium plays the Ogg file: it decodes to the length of the recording', async () => {
    const ogg = webmOpusToOgg(RECORDING);
    const site = http.createServer((req, res) => {
      if (req.url === '/note.ogg') res.writeHead(200, { 'Content-Type': 'audio/ogg' }).end(ogg);
      else res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>player</title>');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
    try {
      const page = await browser.newPage();
      await page.goto(`http://127.0.0.1:${(site.address() as AddressInfo).port}/`);
      // Run in the page (a string: this file is typed for node, not the DOM).
      const played = (await page.evaluate(`(async () => {
        const bytes = await (await fetch('/note.ogg')).arrayBuffer();
        const decoded = await new OfflineAudioContext(1, 48000, 48000).decodeAudioData(bytes);
        const audio = new Audio('/note.ogg');
        await new Promise((resolve, reject) => {
          audio.onloadedmetadata = resolve;
          audio.onerror = () => reject(new Error('audio error ' + audio.error?.code));
        });
        return { decoded: decoded.duration, element: audio.duration };
      })()`)) as { decoded: number; element: number };
      expect(played.decoded).toBeGreaterThan(2.5);
      expect(played.element).toBeGreaterThan(2.5);
    } finally {
      await browser.close();
      site.close();
    }
  });
});
