import { useCallback, useEffect, useRef, useState } from 'react';

/** Spec §9: voice notes are recorded at 128 kbit/s. */
export const AUDIO_BITS_PER_SECOND = 128_000;
/** Spec §9: a recording under this size is a slip of the finger, not a message. */
export const MIN_AUDIO_BYTES = 10_000;

/** WhatsApp plays Ogg/Opus voice notes; Chromium records Opus in WebM, Safari only MP4. */
const MIME_TYPES = ['audio/ogg;codecs=opus', 'audio/webm;codecs=opus', 'audio/webm', 'audio/mp4'];

export type RecorderState = 'idle' | 'starting' | 'recording';

export class RecorderError extends Error {
  constructor(readonly reason: 'unsupported' | 'denied') {
    super(reason);
  }
}

interface Session {
  stream: MediaStream | null;
  recorder: MediaRecorder | null;
  chunks: Blob[];
  /** Set when the user cancels while the browser still asks for the microphone. */
  abandoned: boolean;
}

function extensionOf(mime: string): string {
  if (mime.startsWith('audio/ogg')) return 'ogg';
  if (mime.startsWith('audio/mp4')) return 'm4a';
  return 'webm';
}

function release(session: Session): void {
  for (const track of session.stream?.getTracks() ?? []) track.stop();
}

export interface AudioRecorder {
  state: RecorderState;
  /** When the current recording started (ms since the epoch), for the timer. */
  startedAt: number | null;
  /** Asks for the microphone and starts recording; throws a RecorderError when it cannot. */
  start(): Promise<void>;
  /** Stops and answers the recording as a file. */
  finish(): Promise<File | null>;
  /** Stops and throws the recording away. */
  cancel(): void;
}

/** idle → starting (the microphone prompt) → recording → idle, finished or cancelled. */
export function useAudioRecorder(): AudioRecorder {
  const [state, setState] = useState<RecorderState>('idle');
  const [startedAt, setStartedAt] = useState<number | null>(null);
  const session = useRef<Session | null>(null);

  const stop = useCallback((): Session | null => {
    const current = session.current;
    session.current = null;
    setState('idle');
    setStartedAt(null);
    if (current) current.abandoned = true;
    return current;
  }, []);

  const start = useCallback(async () => {
    if (session.current) return;
    if (!navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === 'undefined') throw new RecorderError('unsupported');
    const current: Session = { stream: null, recorder: null, chunks: [], abandoned: false };
    session.current = current;
    setState('starting');
    try {
      current.stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch {
      if (session.current === current) stop();
      throw new RecorderError('denied');
    }
    if (current.abandoned) {
      release(current);
      return;
    }
    const mimeType = MIME_TYPES.find((type) => MediaRecorder.isTypeSupported(type));
    const recorder = new MediaRecorder(current.stream, { ...(mimeType && { mimeType }), audioBitsPerSecond: AUDIO_BITS_PER_SECOND });
    recorder.ondataavailable = (event) => {
      if (event.data.size > 0) current.chunks.push(event.data);
    };
    current.recorder = recorder;
    recorder.start(250);
    setStartedAt(Date.now());
    setState('recording');
  }, [stop]);

  const finish = useCallback(async () => {
    const current = stop();
    const recorder = current?.recorder;
    if (!current || !recorder) {
      if (current) release(current);
      return null;
    }
    await new Promise<void>((resolve) => {
      recorder.onstop = () => resolve();
      recorder.stop();
    });
    release(current);
    const type = recorder.mimeType || 'audio/webm';
    const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
    return new File(current.chunks, `audio-${stamp}.${extensionOf(type)}`, { type });
  }, [stop]);

  const cancel = useCallback(() => {
    const current = stop();
    if (!current) return;
    if (current.recorder && current.recorder.state !== 'inactive') current.recorder.stop();
    release(current);
  }, [stop]);

  // Leaving the conversation mid-recording turns the microphone off.
  useEffect(() => cancel, [cancel]);

  return { state, startedAt, start, finish, cancel };
}
