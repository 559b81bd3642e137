/**
 * Text to a voice note through a speech service's REST API (Azure Speech's text-to-speech: SSML in,
 * audio out). Ogg/Opus is asked for: it is WhatsApp's own voice-note format, so no transcoding.
 */

/** The output format asked for, and the extension the stored file gets. */
export const SPEECH_FORMAT = 'ogg-24khz-16bit-mono-opus';

/** A voice answer is short (max tokens bound it); a bigger body is not a voice note. */
const MAX_AUDIO_BYTES = 5 * 1024 * 1024;

/** A region is part of a host name: letters and digits only (e.g. brazilsouth, eastus2). */
export const SPEECH_REGION = /^[a-z0-9]{0,50}$/;

/** The endpoint a prompt's speech calls go to: its own URL when set, else its region's. */
export function speechEndpoint(prompt: { voiceEndpoint: string; voiceRegion: string }): string {
  if (prompt.voiceEndpoint) return prompt.voiceEndpoint;
  if (!prompt.voiceRegion) throw new Error('the prompt has no voice region nor endpoint');
  return `https://${prompt.voiceRegion}.tts.speech.microsoft.com/cognitiveservices/v1`;
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

export function ssml(voice: string, text: string): string {
  const escaped = text.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);
  const lang = voice.split('-').slice(0, 2).join('-');
  return `<speak version="1.0" xml:lang="${lang}"><voice name="${voice}">${escaped}</voice></speak>`;
}

/** The body, refused once it passes `max` bytes (announced or read). */
async function limitedBody(res: Response, max: number): Promise<Buffer> {
  if (Number(res.headers.get('content-length') ?? 0) > max) throw new Error(`the audio is over ${max} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body ?? []) {
    size += (chunk as Uint8Array).byteLength;
    if (size > max) throw new Error(`the audio is over ${max} bytes`);
    chunks.push(Buffer.from(chunk as Uint8Array));
  }
  return Buffer.concat(chunks);
}

/** The spoken text as Ogg/Opus bytes; throws with the service's reason. `url` has passed the outgoing-URL check. */
export async function synthesize(input: { url: URL; key: string; voice: string; text: string; signal: AbortSignal }): Promise<Buffer> {
  const res = await fetch(input.url, {
    method: 'POST',
    headers: {
      'Ocp-Apim-Subscription-Key': input.key,
      'Content-Type': 'application/ssml+xml',
      'X-Microsoft-OutputFormat': SPEECH_FORMAT,
      'User-Agent': 'atende',
    },
    body: ssml(input.voice, input.text),
    signal: input.signal,
    // A redirect could lead past the URL check to an address the tenant may not reach.
    redirect: 'error',
  });
  if (!res.ok) {
    const detail = (await res.text().catch(() => '')).slice(0, 200);
    throw new Error(`the service answered ${res.status}${detail ? `: ${detail}` : ''}`);
  }
  const audio = await limitedBody(res, MAX_AUDIO_BYTES);
  if (audio.length === 0) throw new Error('the service answered no audio');
  return audio;
}
