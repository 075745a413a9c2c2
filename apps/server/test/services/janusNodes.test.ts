import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JanusNodeEndpoints } from '../../src/config.ts';
import { seedDemo } from '../../src/db/seed.ts';
import { createJanusNodesRepository } from '../../src/repositories/janusNodes.ts';
import { createMediaRoomsRepository } from '../../src/repositories/mediaRooms.ts';
import type { JanusVideoroomAdmin, RoomSpec } from '../../src/services/media/janusAdmin.ts';
import {
  createJanusNodes,
  HEALTH_FRESH_MS,
  NoJanusNodeError,
  type NodeHealth,
} from '../../src/services/media/janusNodes.ts';
import { createJanusTokens } from '../../src/services/media/janusTokens.ts';
import { createMediaRooms, MediaRoomStillServed } from '../../src/services/media/mediaRooms.ts';
import { DEMO, dialects, freshDb, type TestDb } from '../helpers/context.ts';

const node = (name: string, port: number): JanusNodeEndpoints => ({
  name,
  wsUrl: `ws://127.0.0.1:${port}`,
  httpUrl: `http://127.0.0.1:${port + 1}/janus`,
  adminUrl: `http://127.0.0.1:${port + 2}/admin`,
});
const A = node('janus-a', 9100);
const B = node('janus-b', 9200);

/** One fake Janus per node: which node each videoroom request reached; a node in `lost` does not answer. */
function fakeJanusPerNode() {
  const calls: { node: string; op: string; room: string; spec?: RoomSpec }[] = [];
  const lost = new Set<string>();
  const rooms = new Map<string, Set<string>>();
  const roomsOf = (node: string) => rooms.get(node) ?? rooms.set(node, new Set()).get(node)!;
  const answer = <T>(node: string, value: () => T): Promise<T> =>
    lost.has(node) ? Promise.reject(new Error('connect ECONNREFUSED')) : Promise.resolve(value());
  const adminFor = (n: JanusNodeEndpoints): JanusVideoroomAdmin => ({
    create: (spec) => answer(n.name, () => void (calls.push({ node: n.name, op: 'create', room: spec.room, spec }), roomsOf(n.name).add(spec.room))),
    enableRecording: (room) => answer(n.name, () => void calls.push({ node: n.name, op: 'record', room })),
    destroy: (room) => answer(n.name, () => calls.push({ node: n.name, op: 'destroy', room }) > 0),
    exists: (room) => answer(n.name, () => roomsOf(n.name).has(room)),
  });
  /** the node's process dies: it answers nothing and forgets its rooms */
  const kill = (node: string) => {
    lost.add(node);
    rooms.delete(node);
  };
  return { calls, adminFor, kill };
}

for (const dialect of dialects()) {
  describe(`Janus nodes: health and placement (${dialect})`, () => {
    let t: TestDb;
    let now = 1_800_000_000_000;
    /** what each node's admin API answers (absent: it does not answer) */
    let health: Record<string, NodeHealth>;
    beforeEach(async () => {
      t = await freshDb(dialect);
      await seedDemo(t.db, { companyId: DEMO.companyId, agentPassword: 'a', adminPassword: 'b' });
      health = { 'janus-a': { healthy: true, sessions: 0 }, 'janus-b': { healthy: true, sessions: 0 } };
    });
    afterEach(async () => t.drop());

    const make = async (configured: JanusNodeEndpoints[] = [A, B]) => {
      const janus = fakeJanusPerNode();
      const repo = createJanusNodesRepository(t.db.kysely);
      const roomsRepo = createMediaRoomsRepository(t.db.kysely);
      const nodes = createJanusNodes({
        nodes: configured,
        repo,
        rooms: roomsRepo,
        adminFor: janus.adminFor,
        probe: (n) => Promise.resolve(health[n.name] ?? { healthy: false, sessions: 0 }),
        now: () => now,
      });
      await nodes.sync();
      await nodes.checkHealth();
      const rooms = createMediaRooms({
        repo: roomsRepo,
        nodes,
        tokens: createJanusTokens('s'.repeat(40), () => now),
        recordingsRoot: '/rec',
        tokenTtlSeconds: 3600,
        now: () => now,
      });
      return { janus, repo, roomsRepo, nodes, rooms };
    };
    const call = (rooms: Awaited<ReturnType<typeof make>>['rooms'], id: string) =>
      rooms.grantGuest({ callId: id, companyId: DEMO.companyId, username: 'gab', webview: false });

    it('when each node answers its admin API, then each is serving with its load; one that does not answer is down, and back when it answers', async () => {
      health['janus-b'] = { healthy: true, sessions: 7 };
      delete health['janus-a'];
      const { repo, nodes } = await make();
      expect(
        (await repo.list()).map((r) => [r.name, r.state, r.sessions, r.checked_at, r.healthy_at]),
      ).toEqual([
        ['janus-a', 'down', 0, now, null],
        ['janus-b', 'serving', 7, now, now],
      ]);
      now += 5000;
      health['janus-a'] = { healthy: true, sessions: 2 };
      await nodes.checkHealth();
      expect(await repo.byName('janus-a')).toMatchObject({
        state: 'serving',
        sessions: 2,
        healthy_at: now,
        ws_url: A.wsUrl,
        admin_url: A.adminUrl,
      });
    });

    it('when calls open, then each room goes on the node with the fewest open rooms and its row names it; an ended room frees its place', async () => {
      const { janus, roomsRepo, rooms } = await make();
      await call(rooms, 'gab--C1');
      await call(rooms, 'gab--C2');
      await call(rooms, 'gab--C3');
      expect(janus.calls.filter((c) => c.op === 'create').map((c) => [c.room, c.node])).toEqual([
        ['gab--C1', 'janus-a'],
        ['gab--C2', 'janus-b'],
        ['gab--C3', 'janus-a'],
      ]);
      expect((await roomsRepo.byCallId('gab--C2'))?.janus_node).toBe('janus-b');
      await rooms.end('gab--C1');
      await rooms.end('gab--C3');
      await call(rooms, 'gab--C4');
      expect((await roomsRepo.byCallId('gab--C4'))?.janus_node).toBe('janus-a');
    });

    it('when the rooms are even, then the node with fewer Janus sessions gets the next one', async () => {
      health['janus-a'] = { healthy: true, sessions: 9 };
      health['janus-b'] = { healthy: true, sessions: 1 };
      const { rooms, roomsRepo } = await make();
      await call(rooms, 'gab--S1');
      expect((await roomsRepo.byCallId('gab--S1'))?.janus_node).toBe('janus-b');
    });

    it('when a node is down or drained, then no new room goes there, its rooms keep being served there, and with no node serving the grant fails', async () => {
      const { janus, repo, nodes, rooms, roomsRepo } = await make();
      await call(rooms, 'gab--D1'); // janus-a
      expect(await repo.setDraining('janus-a', true)).toBe(true);
      expect((await repo.byName('janus-a'))?.state).toBe('draining');
      await call(rooms, 'gab--D2');
      await call(rooms, 'gab--D3');
      expect([
        (await roomsRepo.byCallId('gab--D2'))?.janus_node,
        (await roomsRepo.byCallId('gab--D3'))?.janus_node,
      ]).toEqual(['janus-b', 'janus-b']);
      // the drained node's call goes on there: its recording and its end reach it
      await rooms.grantAgent({
        callId: 'gab--D1',
        companyId: DEMO.companyId,
        username: 'agent-18',
        record: true,
      });
      await rooms.startRecording('gab--D1');
      await rooms.end('gab--D1');
      expect(janus.calls.filter((c) => c.room === 'gab--D1').map((c) => [c.op, c.node])).toEqual([
        ['create', 'janus-a'],
        ['record', 'janus-a'],
        ['destroy', 'janus-a'],
      ]);
      // a health check keeps the drain; b goes down: nothing serves
      delete health['janus-b'];
      await nodes.checkHealth();
      expect((await repo.list()).map((r) => r.state)).toEqual(['draining', 'down']);
      await expect(call(rooms, 'gab--D4')).rejects.toThrow(NoJanusNodeError);
      expect(await roomsRepo.byCallId('gab--D4')).toBeNull();
      // undrained: serving again, and it takes the new call
      await repo.setDraining('janus-a', false);
      await call(rooms, 'gab--D4');
      expect((await roomsRepo.byCallId('gab--D4'))?.janus_node).toBe('janus-a');
      expect(await repo.setDraining('janus-z', true)).toBe(false);
    });

    it('when no instance has checked a node for a while, then it is not trusted to serve', async () => {
      const { rooms, roomsRepo, nodes } = await make();
      now += HEALTH_FRESH_MS + 1;
      await expect(call(rooms, 'gab--F1')).rejects.toThrow(NoJanusNodeError);
      await nodes.checkHealth();
      await call(rooms, 'gab--F1');
      expect((await roomsRepo.byCallId('gab--F1'))?.janus_node).toBe('janus-a');
    });

    it('when one node is configured (the default), then every room goes there whatever its health, unless it is drained', async () => {
      delete health['janus-a'];
      const { rooms, roomsRepo, repo } = await make([A]);
      await call(rooms, 'gab--O1');
      expect((await roomsRepo.byCallId('gab--O1'))?.janus_node).toBe('janus-a');
      await repo.setDraining('janus-a', true);
      await expect(call(rooms, 'gab--O2')).rejects.toThrow(NoJanusNodeError);
    });

    it('when a room was made before nodes were recorded (no node on its row), then it is on the first node and counts there', async () => {
      const { janus, rooms, roomsRepo } = await make();
      await t.db.kysely
        .insertInto('media_rooms' as never)
        .values({
          call_id: 'gab--Old',
          company_id: DEMO.companyId,
          pin: 'p',
          secret: 's',
          created_at: now,
          recording: 0,
          record_armed: 0,
        })
        .execute();
      await call(rooms, 'gab--N1');
      expect((await roomsRepo.byCallId('gab--N1'))?.janus_node).toBe('janus-b');
      await rooms.end('gab--Old');
      expect(janus.calls.find((c) => c.room === 'gab--Old')).toMatchObject({
        op: 'destroy',
        node: 'janus-a',
      });
    });

    it('when the Janus node of a call stops answering, then a rejoin re-creates the room on another serving node, the row names it, and the other side\'s rejoin finds it there', async () => {
      const { janus, roomsRepo, rooms } = await make();
      await call(rooms, 'gab--L1'); // janus-a
      await call(rooms, 'gab--L2'); // janus-b
      janus.kill('janus-a'); // before any health check noticed
      await rooms.grantGuest({ callId: 'gab--L1', companyId: DEMO.companyId, username: 'gab', webview: false, rejoin: true });
      expect((await roomsRepo.byCallId('gab--L1'))?.janus_node).toBe('janus-b');
      await rooms.grantAgent({ callId: 'gab--L1', companyId: DEMO.companyId, username: 'agent-18', record: false, rejoin: true });
      expect(janus.calls.filter((c) => c.room === 'gab--L1' && c.op === 'create').map((c) => c.node)).toEqual(['janus-a', 'janus-b']);
      expect((await roomsRepo.byCallId('gab--L1'))?.pin).toBe(janus.calls.find((c) => c.room === 'gab--L1')?.spec?.pin);
      // the other node's call is untouched
      expect((await roomsRepo.byCallId('gab--L2'))?.janus_node).toBe('janus-b');
    });

    it('when a move is asked while the room\'s node answers and still has the room, then it is refused and the room stays where it is; once the node is gone the move is made', async () => {
      const { janus, roomsRepo, rooms } = await make();
      await call(rooms, 'gab--M1'); // janus-a
      const move = () => rooms.grantGuest({ callId: 'gab--M1', companyId: DEMO.companyId, username: 'gab', webview: false, rejoin: true, move: true });
      await expect(move()).rejects.toBeInstanceOf(MediaRoomStillServed);
      expect((await roomsRepo.byCallId('gab--M1'))?.janus_node).toBe('janus-a');
      expect(janus.calls.filter((c) => c.room === 'gab--M1' && c.op === 'create')).toHaveLength(1);
      janus.kill('janus-a');
      await move();
      expect((await roomsRepo.byCallId('gab--M1'))?.janus_node).toBe('janus-b');
    });
  });
}
