import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedDemo } from '../../src/db/seed.ts';
import { createMediaRoomsRepository } from '../../src/repositories/mediaRooms.ts';
import { JanusAdminError, NO_SUCH_ROOM, ROOM_EXISTS, type JanusVideoroomAdmin, type RoomSpec } from '../../src/services/media/janusAdmin.ts';
import { createJanusTokens } from '../../src/services/media/janusTokens.ts';
import { GONE_GUEST_ROOM_MS, MediaRoomClosed, createMediaRooms } from '../../src/services/media/mediaRooms.ts';
import { DEMO, freshDb, type TestDb } from '../helpers/context.ts';

function fakeJanus() {
  const calls: { op: string; room: string; secret?: string; spec?: RoomSpec }[] = [];
  /** the rooms Janus has (a restart of Janus empties it) */
  const rooms = new Set<string>();
  const admin: JanusVideoroomAdmin = {
    create: (spec) => {
      if (rooms.has(spec.room)) return Promise.reject(new JanusAdminError(`videoroom create: Room ${spec.room} already exists`, ROOM_EXISTS));
      rooms.add(spec.room);
      return Promise.resolve(void calls.push({ op: 'create', room: spec.room, secret: spec.secret, spec }));
    },
    exists: (room) => Promise.resolve(rooms.has(room)),
    enableRecording: (room, secret) => Promise.resolve(void calls.push({ op: 'record', room, secret })),
    destroy: (room, secret) => Promise.resolve(calls.push({ op: 'destroy', room, secret }) > 0),
  };
  return { admin, calls, rooms };
}

describe('media rooms (the server owns each call room)', () => {
  let t: TestDb;
  let now = 1_800_000_000_000;
  beforeEach(async () => {
    t = await freshDb('sqlite');
    await seedDemo(t.db, { companyId: DEMO.companyId, agentPassword: 'a', adminPassword: 'b' });
  });
  afterEach(async () => t.drop());

  const make = (janus: JanusVideoroomAdmin) =>
    createMediaRooms({
      repo: createMediaRoomsRepository(t.db.kysely),
      nodes: { place: () => Promise.resolve('janus-1'), admin: () => janus },
      tokens: createJanusTokens('s'.repeat(40), () => now),
      recordingsRoot: '/rec',
      tokenTtlSeconds: 3600,
      now: () => now,
    });

  it('when the guest asks twice, then one room is created with a random lowercase pin and a secret, and both grants name it', async () => {
    const { admin, calls } = fakeJanus();
    const rooms = make(admin);
    const a = await rooms.grantGuest({ callId: 'gab--Call1', companyId: DEMO.companyId, username: 'gab', webview: true });
    const b = await rooms.grantGuest({ callId: 'gab--Call1', companyId: DEMO.companyId, username: 'gab', webview: true });
    expect(calls.filter((c) => c.op === 'create')).toHaveLength(1);
    expect(a.pin).toBe(b.pin);
    expect(a.pin).toMatch(/^[0-9a-f]{24}$/);
    expect(a.pin).not.toContain('gab');
    expect(calls[0]?.spec).toMatchObject({ room: 'gab--Call1', recDir: `/rec/${DEMO.companyId}/gab--Call1`, webview: true });
    expect(calls[0]?.secret).not.toBe(a.pin);
    expect(a.token).toContain('room=gab--Call1,as=guest,user=gab');
  });

  it('when an agent of another company asks, then no grant; of the company, a grant that arms the recording, which starts once when the gate starts it', async () => {
    const { admin, calls } = fakeJanus();
    const rooms = make(admin);
    await rooms.grantGuest({ callId: 'gab--Call2', companyId: DEMO.companyId, username: 'gab', webview: false });
    expect(await rooms.grantAgent({ callId: 'gab--Call2', companyId: DEMO.companyId + 1, username: 'x', record: true })).toBeNull();
    const grant = await rooms.grantAgent({ callId: 'gab--Call2', companyId: DEMO.companyId, username: 'agent-18', record: true });
    await rooms.grantAgent({ callId: 'gab--Call2', companyId: DEMO.companyId, username: 'sup-18', record: true });
    expect(grant?.token).toContain('as=agent,user=agent-18');
    // the agent's browser is still setting up: the guest sees "waiting", nothing is recorded
    expect(calls.filter((c) => c.op === 'record')).toHaveLength(0);

    await Promise.all([rooms.startRecording('gab--Call2'), rooms.startRecording('gab--Call2')]);
    await rooms.startRecording('gab--Call2');
    expect(calls.filter((c) => c.op === 'record')).toEqual([{ op: 'record', room: 'gab--Call2', secret: calls[0]?.secret }]);
  });

  it('when no agent grant armed the recording (the company does not record, or the guest did not acknowledge), then an agent publishing records nothing', async () => {
    const { admin, calls } = fakeJanus();
    const rooms = make(admin);
    await rooms.grantGuest({ callId: 'gab--NoRec', companyId: DEMO.companyId, username: 'gab', webview: false });
    await rooms.startRecording('gab--NoRec');
    await rooms.grantAgent({ callId: 'gab--NoRec', companyId: DEMO.companyId, username: 'agent-18', record: false });
    await rooms.startRecording('gab--NoRec');
    expect(calls.filter((c) => c.op === 'record')).toHaveLength(0);
  });

  it('when Janus refuses to start the recording, then the next agent publish tries again', async () => {
    const { admin, calls } = fakeJanus();
    let refuse = true;
    const rooms = make({ ...admin, enableRecording: (room, secret) => (refuse ? Promise.reject(new Error('janus down')) : admin.enableRecording(room, secret)) });
    await rooms.grantGuest({ callId: 'gab--Retry', companyId: DEMO.companyId, username: 'gab', webview: false });
    await rooms.grantAgent({ callId: 'gab--Retry', companyId: DEMO.companyId, username: 'agent-18', record: true });
    await expect(rooms.startRecording('gab--Retry')).rejects.toThrow('janus down');
    refuse = false;
    await rooms.startRecording('gab--Retry');
    expect(calls.filter((c) => c.op === 'record')).toHaveLength(1);
  });

  it('when the room is gone from Janus by the time the recording starts (the call just ended), then nothing is recorded and nothing thrown', async () => {
    const { admin, calls } = fakeJanus();
    const rooms = make({ ...admin, enableRecording: (room) => Promise.reject(new JanusAdminError(`videoroom enable_recording: No such room (${room})`, NO_SUCH_ROOM)) });
    await rooms.grantGuest({ callId: 'gab--Gone', companyId: DEMO.companyId, username: 'gab', webview: false });
    await rooms.grantAgent({ callId: 'gab--Gone', companyId: DEMO.companyId, username: 'agent-18', record: true });
    await expect(rooms.startRecording('gab--Gone')).resolves.toBeUndefined();
    expect(calls.filter((c) => c.op === 'record')).toHaveLength(0);
  });

  it('when a call ends or its room outlives every token, then the server destroys it with its secret, once', async () => {
    const { admin, calls } = fakeJanus();
    const rooms = make(admin);
    await rooms.grantGuest({ callId: 'gab--Ended', companyId: DEMO.companyId, username: 'gab', webview: false });
    await rooms.grantGuest({ callId: 'gab--Stale', companyId: DEMO.companyId, username: 'gab', webview: false });
    const secretOf = (room: string) => calls.find((c) => c.op === 'create' && c.room === room)?.secret;
    await rooms.end('gab--Ended');
    await rooms.end('gab--Ended');
    expect(await rooms.secretOf('gab--Ended')).toBeNull();
    now += 3601_000;
    await rooms.sweepStale();
    const destroyed = calls.filter((c) => c.op === 'destroy');
    expect(destroyed.map((c) => c.room).sort()).toEqual(['gab--Ended', 'gab--Stale']);
    for (const d of destroyed) expect(d.secret).toBe(secretOf(d.room));
    expect(await rooms.grantAgent({ callId: 'gab--Ended', companyId: DEMO.companyId, username: 'a', record: false })).toBeNull();
  });

  it('when a call\'s guest was stamped gone and not back for GONE_GUEST_ROOM_MS, then the sweep destroys its room; a guest stamped gone more lately, or back, keeps it', async () => {
    const { admin, calls } = fakeJanus();
    const rooms = make(admin);
    const report = (callId: string, guestExitAt: number | null) =>
      t.db.kysely
        .insertInto('call_reports')
        .values({ company_id: DEMO.companyId, call_id: callId, guest_username: 'gab', source: 'site', status: 'ok', created_at: now, guest_exit_at: guestExitAt })
        .execute();
    for (const callId of ['gab--Vanished', 'gab--Lately', 'gab--Back', 'gab--Here']) await rooms.grantGuest({ callId, companyId: DEMO.companyId, username: 'gab', webview: false });
    await report('gab--Vanished', now - GONE_GUEST_ROOM_MS - 1);
    await report('gab--Lately', now - GONE_GUEST_ROOM_MS + 60_000);
    await report('gab--Back', null); // the sweep took its stamp back: it came back to its room
    await report('gab--Here', null);

    await rooms.sweepStale();

    expect(calls.filter((c) => c.op === 'destroy').map((c) => c.room)).toEqual(['gab--Vanished']);
    expect(await rooms.secretOf('gab--Vanished')).toBeNull();
    expect(await rooms.secretOf('gab--Lately')).not.toBeNull();
    await expect(rooms.grantGuest({ callId: 'gab--Vanished', companyId: DEMO.companyId, username: 'gab', webview: false, rejoin: true })).rejects.toBeInstanceOf(MediaRoomClosed);
  });

  it('when Janus restarted (its rooms gone) and the guest rejoins, then the room is made again with the same pin, secret and recording folder, once', async () => {
    const { admin, calls, rooms: inJanus } = fakeJanus();
    const rooms = make(admin);
    const first = await rooms.grantGuest({ callId: 'gab--Lost', companyId: DEMO.companyId, username: 'gab', webview: true });
    // a grant that is not a rejoin asks Janus nothing
    await rooms.grantGuest({ callId: 'gab--Lost', companyId: DEMO.companyId, username: 'gab', webview: true });
    expect(calls.filter((c) => c.op === 'create')).toHaveLength(1);
    inJanus.clear();
    const again = await rooms.grantGuest({ callId: 'gab--Lost', companyId: DEMO.companyId, username: 'gab', webview: true, rejoin: true });
    // the agent's rejoin finds it made already
    await rooms.grantAgent({ callId: 'gab--Lost', companyId: DEMO.companyId, username: 'agent-18', record: false, rejoin: true });
    const creates = calls.filter((c) => c.op === 'create');
    expect(creates).toHaveLength(2);
    expect(creates[1]?.spec).toEqual(creates[0]?.spec);
    expect(again.pin).toBe(first.pin);
    expect(again.room).toBe('gab--Lost');
  });

  it('when the agent rejoins first, then it makes the room again; the guest racing it (Janus says it exists) still gets its grant', async () => {
    const { admin, calls, rooms: inJanus } = fakeJanus();
    // both asked Janus before either created: the guest's create is answered "already exists"
    let lateExists = false;
    const rooms = make({ ...admin, exists: (room) => (lateExists ? Promise.resolve(false) : admin.exists(room)) });
    await rooms.grantGuest({ callId: 'gab--Race', companyId: DEMO.companyId, username: 'gab', webview: false });
    inJanus.clear();
    lateExists = true;
    const agent = await rooms.grantAgent({ callId: 'gab--Race', companyId: DEMO.companyId, username: 'agent-18', record: false, rejoin: true });
    const guest = await rooms.grantGuest({ callId: 'gab--Race', companyId: DEMO.companyId, username: 'gab', webview: false, rejoin: true });
    expect(agent?.room).toBe('gab--Race');
    expect(guest.room).toBe('gab--Race');
    expect(calls.filter((c) => c.op === 'create')).toHaveLength(2);
    expect(calls.at(-1)?.spec).toMatchObject({ room: 'gab--Race', recDir: `/rec/${DEMO.companyId}/gab--Race`, webview: false });
  });

  it('when the room of a webview guest is lost and the agent asks first, then the room is made again H.264-only, as the guest made it', async () => {
    const { admin, calls, rooms: inJanus } = fakeJanus();
    const rooms = make(admin);
    await rooms.grantGuest({ callId: 'gab--Webview', companyId: DEMO.companyId, username: 'gab', webview: true });
    inJanus.clear();
    await rooms.grantAgent({ callId: 'gab--Webview', companyId: DEMO.companyId, username: 'agent-18', record: false, rejoin: true });
    expect(calls.filter((c) => c.op === 'create').map((c) => c.spec?.webview)).toEqual([true, true]);
    // and a browser guest's room stays VP8 whoever makes it again
    await rooms.grantGuest({ callId: 'gab--Browser', companyId: DEMO.companyId, username: 'gab', webview: false });
    inJanus.clear();
    await rooms.grantAgent({ callId: 'gab--Browser', companyId: DEMO.companyId, username: 'agent-18', record: false, rejoin: true });
    expect(calls.filter((c) => c.op === 'create' && c.room === 'gab--Browser').map((c) => c.spec?.webview)).toEqual([false, false]);
  });

  it('when a recording room is made again, then its recording starts again at the next start (new part files in the same folder)', async () => {
    const { admin, calls, rooms: inJanus } = fakeJanus();
    const rooms = make(admin);
    await rooms.grantGuest({ callId: 'gab--RecLost', companyId: DEMO.companyId, username: 'gab', webview: false });
    await rooms.grantAgent({ callId: 'gab--RecLost', companyId: DEMO.companyId, username: 'agent-18', record: true });
    await rooms.startRecording('gab--RecLost');
    inJanus.clear();
    await rooms.grantAgent({ callId: 'gab--RecLost', companyId: DEMO.companyId, username: 'agent-18', record: true, rejoin: true });
    expect(await rooms.recordArmed('gab--RecLost')).toBe(true);
    await rooms.startRecording('gab--RecLost');
    await rooms.startRecording('gab--RecLost');
    const records = calls.filter((c) => c.op === 'record');
    expect(records).toHaveLength(2);
    expect(records[1]?.secret).toBe(records[0]?.secret);
  });

  it('when the room was destroyed (the call ended), then a rejoin never makes it again: the guest is refused with MediaRoomClosed, the agent gets no grant', async () => {
    const { admin, calls, rooms: inJanus } = fakeJanus();
    const rooms = make(admin);
    await rooms.grantGuest({ callId: 'gab--Done', companyId: DEMO.companyId, username: 'gab', webview: false });
    await rooms.end('gab--Done');
    inJanus.clear();
    await expect(rooms.grantGuest({ callId: 'gab--Done', companyId: DEMO.companyId, username: 'gab', webview: false, rejoin: true })).rejects.toBeInstanceOf(MediaRoomClosed);
    expect(await rooms.grantAgent({ callId: 'gab--Done', companyId: DEMO.companyId, username: 'agent-18', record: false, rejoin: true })).toBeNull();
    // an agent of another company never makes another company's room
    await rooms.grantGuest({ callId: 'gab--Other', companyId: DEMO.companyId, username: 'gab', webview: false });
    inJanus.clear();
    expect(await rooms.grantAgent({ callId: 'gab--Other', companyId: DEMO.companyId + 1, username: 'x', record: false, rejoin: true })).toBeNull();
    expect(calls.filter((c) => c.op === 'create').map((c) => c.room)).toEqual(['gab--Done', 'gab--Other']);
  });
});
