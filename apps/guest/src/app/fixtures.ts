// DEV ONLY (imported behind `import.meta.env.DEV` in main.tsx): a demo company and fake media so every
// screen can be looked at without a server: `/?fixture=ongoing&lang=ar&callType=voice`.
// Parameters: fixture=<screen>|loading|error, lang=en|ar|multi, callType=userSelect|video|voice,
// reason=<endReason|unsupportedReason>, assignments=<n>, style=stars|emojies, webview=true.
import type { Company } from '../api/company.ts';
import { applyCompany } from './bootstrap.ts';
import type { AppServices } from '../state/services.ts';
import { isScreen } from '../state/screens.ts';
import type { GuestStore } from '../state/store.ts';
import type { EndReason, UnsupportedReason } from '../journey/chart.ts';
import { fakePersonStream } from '@lobby/ui/dev';

export function demoCompany(params: URLSearchParams): Company {
  const lang = params.get('lang');
  const count = Number(params.get('assignments') ?? '3');
  const assignments = [
    { id: 1, name: lang === 'ar' ? 'المبيعات' : 'Sales', type: 'queue' as const },
    { id: 2, name: lang === 'ar' ? 'دعم العملاء' : 'Customer support', type: 'queue' as const },
    { id: 3, name: lang === 'ar' ? 'الفواتير' : 'Billing', type: 'queue' as const },
    { id: 4, name: lang === 'ar' ? 'المساعدة التقنية' : 'Technical help', type: 'queue' as const },
  ].slice(0, Math.max(0, Math.min(4, count)));
  const hours = (day: number) => [{ day, from: '09:00', to: '13:00' }, { day, from: '14:00', to: '18:00' }];
  return {
    id: 18,
    activated: true,
    name: lang === 'ar' ? 'شركة النخبة' : 'Acme Insurance',
    callMethod: 'mediaServer',
    callType: (params.get('callType') as Company['callType']) ?? 'userSelect',
    language: lang === 'ar' ? 'arabic' : lang === 'en' ? 'english' : 'multilingual',
    welcomeMsg: 'Questions about your policy? Talk to an advisor face to face — no appointment needed.',
    welcomeMsg_ar: 'هل لديك أسئلة حول وثيقتك؟ تحدّث مع مستشار وجهًا لوجه دون موعد مسبق.',
    backgroundColor: params.get('bg') ?? '#707070',
    categoryBackgroundColor: params.get('accent') ?? '#0b6bcb',
    categoryTextColor: '#ffffff',
    websiteUrl: 'https://example.com',
    websiteTitle: 'example.com',
    recordCalls: true,
    showRatingPage: true,
    ratingStyle: (params.get('style') as Company['ratingStyle']) ?? 'stars',
    advanceRating: true,
    hideTimetable: false,
    schedule: { timezone: 'UTC', weekly: [1, 2, 3, 4, 5].flatMap(hours).concat([{ day: 6, from: '10:00', to: '14:00' }]) },
    assignments,
  };
}

/** A moving canvas picture standing in for the agent's camera. */
const fakeRemoteStream = () =>
  fakePersonStream({
    background: ['#3b4f66', '#1d2633'],
    face: '#c99a7b',
    shirt: '#23395b',
    window: { x: 860, y: 140, width: 260, height: 300, colour: '#5b7390' },
  });

async function fakeLocalStream(video: boolean): Promise<MediaStream | null> {
  try {
    return await navigator.mediaDevices.getUserMedia({ audio: true, video });
  } catch {
    return null;
  }
}

/** Sets the store up for `fixture`; returns services to use instead of the real ones. */
export async function applyFixture(
  store: GuestStore,
  fixture: string,
  params: URLSearchParams,
): Promise<Partial<AppServices>> {
  const s = store.getState();
  // Stays in the loading phase: the company never arrives.
  if (fixture === 'loading') return { gate: null, loadCompany: () => new Promise<never>(() => undefined) };
  const company = demoCompany(params);
  if (fixture === 'error') {
    s.setLoadFailed({ code: 'company-load', message: 'fixture' });
    return { gate: null, loadCompany: () => Promise.reject(new Error('fixture: the company never loads')) };
  }
  await applyCompany(store, company, null);
  if (!isScreen(fixture)) return { gate: null };
  const callType = company.callType === 'voice' ? 'voice' : 'video';
  s.setCallType(callType);
  const reason = params.get('reason');
  if (fixture === 'abandoned') s.setEndReason((reason as EndReason | null) ?? 'noAnswer');
  if (fixture === 'unsupported') s.setUnsupportedReason((reason as UnsupportedReason | null) ?? 'media');
  if (fixture === 'waiting' || fixture === 'preview' || fixture === 'ongoing') {
    s.setLocalStream(await fakeLocalStream(callType === 'video'));
    s.setWaitingSince(Date.now() - 37_000);
  }
  if (fixture === 'ongoing') {
    const remote = callType === 'video' ? fakeRemoteStream() : await fakeLocalStream(false);
    if (remote) s.addRemoteFeed({ feedId: 'agent-1', display: params.get('lang') === 'ar' ? 'سارة' : 'Sarah Miller', stream: remote });
    s.setCallStartedAt(Date.now() - 134_000);
    if (params.get('muted') === 'true') s.setAudioMuted(true);
  }
  // a fixture poses the app at one screen to look at it (dev only): no journey led there
  store.setState({ screen: fixture });
  return { gate: null };
}
