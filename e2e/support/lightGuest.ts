/**
 * A waiting guest without a browser: the HTTP API called by hand and a bare XMPP client
 * (support/rawXmpp.ts, not the product's engine). It does what the guest app does before an agent
 * answers: register, open the call (call-report/add), connect, join its room and announce OpenCall. A
 * journey can put hundreds of these in the queue where hundreds of browsers would not fit the machine.
 */
import { randomBytes } from 'node:crypto';
import { addReport, BASE_URL, registerGuest, XMPP_WS_URL } from './api.ts';
import { RawXmpp } from './rawXmpp.ts';

export interface LightGuest {
  username: string;
  callId: string;
  room: string;
  /** every room registration provisioned for it (one per assignment) */
  rooms: string[];
  /** the guest's API token (to end its call) */
  token: string;
  /** its XMPP login (JID and credential), to connect again */
  jid: string;
  credential: string;
  /** the websocket its stream was opened on */
  wsUrl: string;
  xmpp: RawXmpp;
  /** performance.now() when OpenCall was sent (the bench times the fan-out from it) */
  sentAt: number;
}

/** registrations answered 503 and asked again, as the guest app does (GuestCall.prepare: 1, 2, 3 s) */
export const registerRetries = { count: 0 };

async function registerAsTheAppDoes(companyId: number) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await registerGuest(companyId);
    } catch (error) {
      if (attempt >= 4 || !String(error).includes('register: 503')) throw error;
      registerRetries.count++;
      await new Promise((resolve) => setTimeout(resolve, 1000 * attempt));
    }
  }
}

/** The presences a waiting guest sends to be in its room's queue: the join, then OpenCall (after the join's answer). */
export const joinPresence = (self: string): string =>
  `<presence to="${self}"><x xmlns="http://jabber.org/protocol/muc"><history maxstanzas="0"/></x></presence>`;
export const openCallPresence = (self: string, callId: string): string =>
  `<presence to="${self}"><status>OpenCall||${callId}</status><lobby xmlns="urn:lobby:presence:0" userType="guest" appointmentID=""/></presence>`;

/**
 * Registers a guest of `companyId` and leaves it waiting in the room of its first assignment; its XMPP
 * stream on `wsUrl` (nginx's by default; a bench may name one ejabberd node's own websocket).
 */
export async function lightGuestWaits(companyId = 18, wsUrl = XMPP_WS_URL): Promise<LightGuest> {
  const reg = await registerAsTheAppDoes(companyId);
  const room = reg.guestRooms[0]?.room;
  if (!room) throw new Error(`guest ${reg.username}: no room`);
  const callId = `${reg.username}--${randomBytes(4).toString('hex')}`;
  await addReport(reg.access_token, { call_id: callId, company: companyId, source: 'site' });
  const xmpp = new RawXmpp(reg.jabberusername);
  await xmpp.connect(wsUrl, reg.credential, `light-${randomBytes(3).toString('hex')}`);
  const self = `${room}/${reg.username}`;
  const joined = xmpp.waitFor((x) => x.startsWith('<presence') && x.includes(`from="${self}"`) && x.includes('code="110"'), `join ${room}`);
  xmpp.send(joinPresence(self));
  await joined;
  const sentAt = performance.now();
  xmpp.send(openCallPresence(self, callId));
  return {
    username: reg.username,
    callId,
    room,
    rooms: reg.guestRooms.map((r) => r.room),
    token: reg.access_token,
    jid: reg.jabberusername,
    credential: reg.credential,
    wsUrl,
    xmpp,
    sentAt,
  };
}

/** Starts `n` guests, at most `inFlight` registering at once; rejects when any fails. */
export async function lightGuestsWait(n: number, inFlight = 10, companyId = 18): Promise<LightGuest[]> {
  const { ok, failed } = await lightGuestsTry(n, inFlight, companyId);
  if (failed.length) throw new Error(`${failed.length} of ${n} guests could not wait: ${failed[0]}`);
  return ok;
}

/**
 * Starts `n` guests, at most `inFlight` registering at once; the failures are counted, not thrown (the
 * bench). `wsUrl(k)`: the XMPP websocket of the k-th guest started (nginx's for all by default).
 */
export async function lightGuestsTry(
  n: number,
  inFlight = 10,
  companyId = 18,
  wsUrl: (k: number) => string = () => XMPP_WS_URL,
): Promise<{ ok: LightGuest[]; failed: string[] }> {
  const ok: LightGuest[] = [];
  const failed: string[] = [];
  let started = 0;
  await Promise.all(
    Array.from({ length: Math.min(inFlight, n) }, async () => {
      while (started < n) {
        const k = started++;
        await lightGuestWaits(companyId, wsUrl(k)).then(
          (guest) => ok.push(guest),
          (error: unknown) => failed.push(error instanceof Error ? error.message : String(error)),
        );
      }
    }),
  );
  return { ok, failed };
}

/** The guest ends its call (as the guest app's hang-up does) and closes its XMPP session. */
export async function lightGuestLeaves(guest: LightGuest): Promise<void> {
  await fetch(`${BASE_URL}/api/call-report/update-timestamp`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${guest.token}` },
    body: JSON.stringify({ call_id: guest.callId, guest_exit_timestamp: true, call_ended_timestamp: true }),
  }).catch(() => undefined);
  guest.xmpp.close();
}
