// DEV ONLY (imported behind `import.meta.env.DEV` in main.tsx): demo agent, queue and fake media.
import type { QueueEntry } from '@lobby/call';
import type { ConsoleStore } from '../state/store.ts';
import { fakePersonStream } from '@lobby/ui/dev';

/** A moving picture standing in for the guest's camera. */
const fakeRemoteStream = () =>
  fakePersonStream({ background: ['#6b5b4b', '#2b2520'], face: '#d8b094', shirt: '#4a6b52' });

/** A made-up waiting guest as the desk lists one (its room presence says OpenCall). */
function waiting(callId: string, name: string, callType: QueueEntry['callType'], assignmentId: number, assignmentName: string, since: number): QueueEntry {
  const nick = callId.split('--')[0] ?? callId;
  return {
    ...{ room: `a${assignmentId}-${nick}@conference.lobby.local`, nick, guestJid: null, callId, target: '', appointmentID: '' },
    ...{ assignmentId, assignmentName, since, statusText: `OpenCall||${callId}`, callType, offerExpiresAt: null },
    lobby: { userType: 'guest', appointmentID: '', name },
  };
}

/** `?guests=N` lists N made-up guests instead (the queue's layout with many rows) */
function manyGuests(n: number, now: number): QueueEntry[] {
  return Array.from({ length: n }, (_, i) => {
    const code = (0x1000 + i).toString(16).toUpperCase();
    return waiting(`g${code.toLowerCase()}--1`, `Guest ${code}`, i % 3 ? 'video' : 'voice', 1, 'Sales', now - (n - i) * 7_000);
  });
}

export function demoQueue(now = Date.now()): QueueEntry[] {
  return [
    waiting('g7f3a9--1', 'Guest 7F3A', 'video', 1, 'Sales', now - 45_000),
    waiting('g19c2e--1', 'Guest 19C2', 'voice', 2, 'Customer support', now - 192_000),
    waiting('g5b80d--1', 'Guest 5B80', 'video', 3, 'Billing', now - 9_000),
    waiting('g2aa41--1', 'Guest 2AA4', 'video', 2, 'Customer support', now - 351_000),
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
    const started = Date.now() - 83_000;
    s.setActiveCall({
      ...{ callId: 'g7f3a9--1', room: 'a1-g7f3a9@conference.lobby.local', guestNick: 'g7f3a9', startedAt: started, callType: kind, guestStatus: '' },
      ...{ guestName: 'Guest 7F3A', assignmentName: 'Sales', talkingSince: started },
    });
    s.setStreams(local, remote ? [{ feedId: 'guest', display: 'Guest 7F3A', stream: remote }] : []);
  }
}
