/**
 * How a new message makes itself known: a short chime at the top bar's volume and a browser
 * notification. Browsers allow both only after a user gesture, so the first click prepares them.
 */

/** The top bar's slider writes it: 0 to 1, 1 by default. */
const VOLUME_KEY = 'volume';
/** The permission is asked once; a dismissed prompt is not asked again. */
const ASKED_KEY = 'notificationsAsked';

let audio: AudioContext | null = null;

export function storedVolume(): number {
  const stored = Number(localStorage.getItem(VOLUME_KEY) ?? '1');
  return Number.isFinite(stored) ? Math.min(1, Math.max(0, stored)) : 1;
}

function audioContext(): AudioContext | null {
  if (audio) return audio;
  if (typeof AudioContext === 'undefined') return null;
  audio = new AudioContext();
  return audio;
}

/** Two soft notes; silent at volume 0. */
export function playChime(): void {
  const volume = storedVolume();
  const ctx = volume > 0 ? audioContext() : null;
  if (!ctx) return;
  if (ctx.state === 'suspended') void ctx.resume().catch(() => undefined);
  const start = ctx.currentTime + 0.01;
  for (const [frequency, offset] of [
    [880, 0],
    [1318.5, 0.13],
  ] as const) {
    const oscillator = ctx.createOscillator();
    const gain = ctx.createGain();
    oscillator.type = 'sine';
    oscillator.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, start + offset);
    gain.gain.exponentialRampToValueAtTime(0.3 * volume, start + offset + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + offset + 0.4);
    oscillator.connect(gain).connect(ctx.destination);
    oscillator.start(start + offset);
    oscillator.stop(start + offset + 0.45);
  }
}

/** On the first click: unlock the audio and ask for notifications (once ever). Answers the undo. */
export function prepareAlerts(): () => void {
  const onGesture = () => {
    if (storedVolume() > 0) void audioContext()?.resume().catch(() => undefined);
    if ('Notification' in window && Notification.permission === 'default' && !localStorage.getItem(ASKED_KEY)) {
      localStorage.setItem(ASKED_KEY, '1');
      void Notification.requestPermission().catch(() => undefined);
    }
  };
  document.addEventListener('pointerdown', onGesture, { once: true });
  return () => document.removeEventListener('pointerdown', onGesture);
}

export interface BrowserNotice {
  title: string;
  body: string;
  icon?: string;
  /** One notice per ticket: a newer message replaces the older one. */
  tag: string;
  onClick(): void;
}

export function showBrowserNotification(notice: BrowserNotice): void {
  if (!('Notification' in window) || Notification.permission !== 'granted') return;
  try {
    const notification = new Notification(notice.title, { body: notice.body, icon: notice.icon, tag: notice.tag });
    notification.onclick = () => {
      window.focus();
      notice.onClick();
      notification.close();
    };
  } catch {
    // Some mobile browsers only show notifications from a service worker: the chime still plays.
  }
}
