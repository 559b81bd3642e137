/** A chip's colours, as CSS values. */
export interface ChipColors {
  backgroundColor: string;
  color: string;
  borderColor: string;
}

type Rgb = readonly [number, number, number];

const WHITE: Rgb = [255, 255, 255];
const BLACK: Rgb = [0, 0, 0];
/** WCAG AA for normal text. */
export const MIN_CONTRAST = 4.5;
/** How much of the chosen colour tints a dark-mode chip's background. */
const DARK_TINT = 0.25;
const DARK_BORDER_TINT = 0.5;
/** The text is lightened towards white in this many steps at most. */
const LIGHTEN_STEPS = 20;

/** '#rgb', '#rrggbb' or '#rrggbbaa' (the alpha is ignored); null for anything else. */
export function parseHex(value: string): Rgb | null {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i.exec(value.trim())?.[1];
  if (!hex) return null;
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex.slice(0, 6);
  return [0, 2, 4].map((at) => parseInt(full.slice(at, at + 2), 16)) as unknown as Rgb;
}

const css = ([r, g, b]: Rgb) => `rgb(${r}, ${g}, ${b})`;

/** `amount` of `a` over `b`. */
const mix = (a: Rgb, b: Rgb, amount: number): Rgb =>
  [0, 1, 2].map((i) => Math.round(a[i]! * amount + b[i]! * (1 - amount))) as unknown as Rgb;

function luminance(rgb: Rgb): number {
  const [r, g, b] = rgb.map((channel) => {
    const c = channel / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as unknown as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The WCAG contrast ratio of two colours, 1 to 21. */
export function contrast(a: Rgb, b: Rgb): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/**
 * Readable colours for a chip of a user-chosen colour (queues, tags). On a light page the chip is
 * the colour itself with black or white text, whichever reads better. On a dark page a light
 * colour at full strength glares: the background is the colour muted into the page's surface and
 * the text the colour lightened until it reads (contrast >= 4.5). Null when `color` is not a hex
 * colour (antd's named presets keep their own look).
 */
export function chipColors(color: string, dark: { surface: string } | null): ChipColors | null {
  const rgb = parseHex(color);
  if (!rgb) return null;
  if (!dark) {
    const text = contrast(rgb, WHITE) >= contrast(rgb, BLACK) ? WHITE : BLACK;
    return { backgroundColor: css(rgb), color: css(text), borderColor: css(rgb) };
  }
  const surface = parseHex(dark.surface) ?? BLACK;
  const background = mix(rgb, surface, DARK_TINT);
  let text = rgb;
  for (let step = 1; step <= LIGHTEN_STEPS && contrast(text, background) < MIN_CONTRAST; step++) {
    text = mix(WHITE, rgb, step / LIGHTEN_STEPS);
  }
  return { backgroundColor: css(background), color: css(text), borderColor: css(mix(rgb, surface, DARK_BORDER_TINT)) };
}
