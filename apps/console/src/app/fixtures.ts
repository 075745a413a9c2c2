// DEV ONLY (imported behind `import.meta.env.DEV` in main.tsx): demo agent, queue and fake media.
import type { ConsoleStore, QueueEntry } from '../state/store.ts';
import { fakePersonStream } from '@lobby/ui/dev';

/** A moving picture standing in for the guest's camera. */
const fakeRemoteStream = () =>
  fakePersonStream({ background: ['#6b5b4b', '#2b2520'], face: '#d8b094', shirt: '#4a6b52' });

/** `?guests=N` lists N made-up guests instead (the queue's layout with many rows) */
function manyGuests(n: number, now: number): QueueEntry[] {
  return Array.from({ length: n }, (_, i) => {
    const code = (0x1000 + i).toString(16).toUpperCase();
    return { callId: `g${code.toLowerCase()}--1`, guestName: `Guest ${code}`, kind: i % 3 ? 'video' : 'voice', assignmentId: 1, assignmentName: 'Sales', waitingSince: now - (n - i) * 7_000 };
  });
}

export function demoQueue(now = Date.now()): QueueEntry[] {
  return [
    { callId: 'g7f3a9--1', guestName: 'Guest 7F3A', kind: 'video', assignmentId: 1, assignmentName: 'Sales', waitingSince: now - 45_000 },
    { callId: 'g19c2e--1', guestName: 'Guest 19C2', kind: 'voice', assignmentId: 2, assignmentName: 'Customer support', waitingSince: now - 192_000 },
    { callId: 'g5b80d--1', guestName: 'Guest 5B80', kind: 'video', assignmentId: 3, assignmentName: 'Billing', waitingSince: now - 9_000 },
    { callId: 'g2aa41--1', guestName: 'Guest 2AA4', kind: 'video', assignmentId: 2, assignmentName: 'Customer support', waitingSince: now - 351_000 },
  ];
}

export async function applyFixture(store: ConsoleStore, fixture: string, params: URLSearchParams): Promise<void> {
  const s = store.getState();
  const lang = params.get('lang');
  if (lang === 'ar' || lang === 'en') s.setLanguage(lang);
  if (fixture === 'login' || fixture === 'login-error') {
    s.setSession(null);
    if (fixture === 'login-error') s.setLoginError('invalid');
    return;
  }
  s.setSession({ id: 1, email: 'sarah@example.com', name: 'Sarah Miller', role: params.get('role') === 'admin' ? 'admin' : 'agent', companyId: 18, jid: 'sarah@lobby.local', assignmentIds: [1] });
  s.setCompanyName('Acme Insurance');
  if (params.get('away') === 'true') s.setAvailability('away');
  if (fixture === 'empty') return;
  const guests = Number(params.get('guests') ?? 0);
  s.setQueue(guests > 0 ? manyGuests(guests, Date.now()) : demoQueue());
  if (fixture === 'call' || fixture === 'voice-call') {
    const kind = fixture === 'call' ? 'video' : 'voice';
    let local: MediaStream | null = null;
    try {
      local = await navigator.mediaDevices.getUserMedia({ audio: true, video: kind === 'video' });
    } catch {
      local = null;
    }
    const remote = kind === 'video' ? fakeRemoteStream() : local;
    s.removeQueueEntry('g7f3a9--1');
    s.setActiveCall({ callId: 'g7f3a9--1', guestName: 'Guest 7F3A', kind, assignmentName: 'Sales', startedAt: Date.now() - 83_000 });
    s.setStreams(local, remote ? [{ feedId: 'guest', display: 'Guest 7F3A', stream: remote }] : []);
  }
}
