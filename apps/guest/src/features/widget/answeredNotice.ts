// When an agent answers while the page is hidden (another tab, minimised window), the guest hears a chime,
// sees the page title change and, when notifications are allowed (notificationAllowed), gets a
// browser notification; clicking it brings the call back. The title is restored once the page is visible.
// Permission is asked when the guest starts a call (a click of theirs), only in a page of its own: browsers
// refuse notification prompts to cross-origin frames.
import type { GuestState, GuestStore } from '../../state/store.ts';
import en from './en.json';
import ar from './ar.json';

const texts = { en, ar } as const;

export interface NoticeEnvironment {
  hidden(): boolean;
  topLevel(): boolean;
  notifications(): typeof Notification | null;
  chime(): void;
}

export const browserNoticeEnvironment: NoticeEnvironment = {
  hidden: () => document.visibilityState === 'hidden',
  topLevel: () => window.parent === window,
  notifications: () => (typeof Notification === 'undefined' ? null : Notification),
  chime: () => playChime(),
};

let audio: AudioContext | null = null;

/** Made during the Call click (a user gesture), so that it may play later. */
function primeAudio(): void {
  try {
    audio ??= new AudioContext();
    if (audio.state === 'suspended') void audio.resume().catch(() => undefined);
  } catch {
    audio = null;
  }
}

/** Two short rising tones. */
function playChime(): void {
  primeAudio();
  const ctx = audio;
  if (!ctx) return;
  const now = ctx.currentTime;
  [660, 880].forEach((frequency, i) => {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, now + i * 0.18);
    gain.gain.exponentialRampToValueAtTime(0.25, now + i * 0.18 + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.18 + 0.3);
    osc.connect(gain).connect(ctx.destination);
    osc.start(now + i * 0.18);
    osc.stop(now + i * 0.18 + 0.32);
  });
}

export function bindAnsweredNotice(store: GuestStore, env: NoticeEnvironment = browserNoticeEnvironment): () => void {
  let savedTitle: string | null = null;
  let notification: Notification | null = null;

  const restore = () => {
    if (env.hidden()) return;
    if (savedTitle !== null) document.title = savedTitle;
    savedTitle = null;
    notification?.close();
    notification = null;
  };

  const onChange = (state: GuestState, previous: GuestState) => {
    if (state.screen === previous.screen) return;
    if (state.screen === 'waiting') {
      primeAudio();
      const N = env.notifications();
      if (N && N.permission === 'default' && env.topLevel()) void N.requestPermission().catch(() => undefined);
      return;
    }
    if (state.screen !== 'ongoing' || !env.hidden()) {
      if (previous.screen === 'ongoing') restore();
      return;
    }
    const t = texts[state.language];
    const company = state.company?.name;
    env.chime();
    savedTitle ??= document.title;
    document.title = `${t.answeredTitle} — ${savedTitle}`;
    const N = env.notifications();
    if (N && N.permission === 'granted') {
      try {
        notification = new N(t.answeredTitle, {
          body: company ? t.answeredBody.replace('{{company}}', company) : t.answeredBodyNoCompany,
          tag: 'lobby-answered',
        });
        notification.onclick = () => {
          window.focus();
          notification?.close();
        };
      } catch {
        notification = null; // e.g. Android Chrome allows notifications only from a service worker
      }
    }
  };

  const unsubscribe = store.subscribe(onChange);
  document.addEventListener('visibilitychange', restore);
  return () => {
    unsubscribe();
    document.removeEventListener('visibilitychange', restore);
  };
}
