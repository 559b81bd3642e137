import { z } from 'zod';

/** YouTube video codes are 11 characters of letters, digits, '-' and '_'. */
const VIDEO_CODE = /^[A-Za-z0-9_-]{11}$/;
const YOUTUBE_HOSTS = new Set(['youtube.com', 'm.youtube.com', 'music.youtube.com', 'youtube-nocookie.com']);
/** Paths that carry the code as their second segment: /embed/CODE, /shorts/CODE, … */
const CODE_PATHS = new Set(['embed', 'shorts', 'live', 'v']);

/**
 * The video code of a YouTube address (watch?v=, youtu.be/, /embed/, /shorts/, /live/), or the
 * value itself when it already is a code; undefined when it is neither.
 */
export function youtubeCode(value: string): string | undefined {
  if (VIDEO_CODE.test(value)) return value;
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `https://${value}`);
  } catch {
    return undefined;
  }
  const host = url.hostname.toLowerCase().replace(/^www\./, '');
  const [first, second] = url.pathname.split('/').filter(Boolean);
  let code: string | null | undefined;
  if (host === 'youtu.be') code = first;
  else if (YOUTUBE_HOSTS.has(host)) code = first === 'watch' ? url.searchParams.get('v') : first && CODE_PATHS.has(first) ? second : undefined;
  return code && VIDEO_CODE.test(code) ? code : undefined;
}

const title = z.string({ error: 'Required' }).trim().min(1, 'Required').max(255, 'Too Long!');
const description = z.string().trim().max(5000, 'Too Long!');
const video = z
  .string({ error: 'Required' })
  .trim()
  .transform((value, ctx) => {
    const code = youtubeCode(value);
    if (!code) {
      ctx.addIssue({ code: 'custom', message: 'Must be a YouTube video code or address' });
      return z.NEVER;
    }
    return code;
  });
/** An http(s) address, or empty for none. */
const link = z
  .string()
  .trim()
  .max(2000, 'Too Long!')
  .refine((value) => value === '' || /^https?:\/\/[^\s/$.?#].\S*$/i.test(value), 'Must be an http(s) address');

/** The optional texts: null means empty. */
const nullAsEmpty = (value: unknown) => (value === null ? '' : value);

/** POST /api/helps: title and video are required; description and link default to empty. */
export const helpCreateSchema = z.object({
  title,
  video,
  description: z.preprocess(nullAsEmpty, description.default('')),
  link: z.preprocess(nullAsEmpty, link.default('')),
});

/** PUT /api/helps/:id: any subset of the same fields. */
export const helpUpdateSchema = z.object({
  title: title.optional(),
  video: video.optional(),
  description: z.preprocess(nullAsEmpty, description.optional()),
  link: z.preprocess(nullAsEmpty, link.optional()),
});

export type HelpCreateInput = z.infer<typeof helpCreateSchema>;
export type HelpUpdateInput = z.infer<typeof helpUpdateSchema>;
