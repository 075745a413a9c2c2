import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedDemo } from '../../src/db/seed.ts';
import { createMediaRoomsRepository } from '../../src/repositories/mediaRooms.ts';
import { JanusAdminError, NO_SUCH_ROOM, type JanusVideoroomAdmin, type RoomSpec } from '../../src/services/media/janusAdmin.ts';
import { createJanusTokens } from '../../src/services/media/janusTokens.ts';
import { createMediaRooms } from '../../src/services/media/mediaRooms.ts';
import { DEMO, freshDb, type TestDb } from '../helpers/context.ts';

function fakeJanus() {
  const calls: { op: string; room: string; secret?: string; spec?: RoomSpec }[] = [];
  const admin: JanusVideoroomAdmin = {
    create: (spec) => Promise.resolve(void calls.push({ op: 'create', room: spec.room, secret: spec.secret, spec })),
    enableRecording: (room, secret) => Promise.resolve(void calls.push({ op: 'record', room, secret })),
    destroy: (room, secret) => Promise.resolve(calls.push({ op: 'destroy', room, secret }) > 0),
  };
  return { admin, calls };
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
});
