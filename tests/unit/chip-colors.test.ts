import { describe, expect, it } from 'vitest';
import { chipColors, contrast, MIN_CONTRAST, parseHex } from '../../web/src/theme/chip-colors.js';

/** Antd's dark container surface. */
const DARK = { surface: '#141414' };
const rgbOf = (css: string) => css.match(/\d+/g)!.map(Number) as unknown as [number, number, number];
const textContrast = (colors: { color: string; backgroundColor: string }) => contrast(rgbOf(colors.color), rgbOf(colors.backgroundColor));

/** Every 51st value of each channel: 216 colours from black to white, pastels and neons included. */
const palette = [0, 51, 102, 153, 204, 255].flatMap((r) =>
  [0, 51, 102, 153, 204, 255].flatMap((g) => [0, 51, 102, 153, 204, 255].map((b) => `#${[r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('')}`)),
);

describe('chip colours', () => {
  it('every colour reads with a contrast of at least 4.5 on a dark page', () => {
    for (const color of palette) expect(textContrast(chipColors(color, DARK)!), color).toBeGreaterThanOrEqual(MIN_CONTRAST);
  });

  it('every colour reads with a contrast of at least 4.5 on a light page', () => {
    for (const color of palette) expect(textContrast(chipColors(color, null)!), color).toBeGreaterThanOrEqual(MIN_CONTRAST);
  });

  it('a light colour on a dark page gets a dark background, not the glaring colour itself', () => {
    const colors = chipColors('#fff59d', DARK)!;
    expect(contrast(rgbOf(colors.backgroundColor), [0x14, 0x14, 0x14])).toBeLessThan(3);
  });

  it('reads #rgb, #rrggbb and #rrggbbaa, and leaves anything else to the chip', () => {
    expect(parseHex('#fa0')).toEqual([255, 170, 0]);
    expect(parseHex('#FFAA00')).toEqual([255, 170, 0]);
    expect(parseHex('#ffaa0080')).toEqual([255, 170, 0]);
    expect(chipColors('blue', DARK)).toBeNull();
  });
});
