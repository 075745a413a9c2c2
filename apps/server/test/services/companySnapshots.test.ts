import type { Assignment } from '@lobby/contracts';
import { describe, expect, it } from 'vitest';
import type { CompanyRow } from '../../src/repositories/companies.ts';
import { createCompanySnapshots, type CompanySnapshot, type CompanySnapshotSource } from '../../src/services/companySnapshots.ts';

/** A database stand-in that counts its reads and can be changed behind the cache's back. */
function fakeSource() {
  const state = {
    activated: true,
    assignments: [{ id: 1, name: 'Sales', type: 'queue' }] as Assignment[],
    agents: [{ assignmentId: 1, xmppUsername: 'a1' }],
    hosts: new Map([['demo.example', 18]]),
    reads: 0,
    hostReads: 0,
    fail: false,
  };
  const company = (id: number): CompanyRow | null =>
    id === 18 ? ({ id, name: 'Demo', host: '', activated: state.activated, settings: {} } as CompanyRow) : null;
  const source: CompanySnapshotSource = {
    byId: (id) => {
      state.reads += 1;
      return state.fail ? Promise.reject(new Error('database down')) : Promise.resolve(company(id));
    },
    assignments: () => Promise.resolve(state.assignments),
    quotaRows: () => Promise.resolve([] as CompanySnapshot['quotas']),
    blockedUsernames: () => Promise.resolve([]),
    agentsOfAssignments: () => Promise.resolve(state.agents),
    idByHost: (host) => {
      state.hostReads += 1;
      return Promise.resolve(state.hosts.get(host) ?? null);
    },
  };
  return { state, source };
}

describe('company snapshots (the cache of what opening a call reads)', () => {
  it('when a company is read twice within the time to live, then the database is read once; after it, again', async () => {
    const { state, source } = fakeSource();
    let now = 0;
    const snapshots = createCompanySnapshots(source, { ttlMs: 1000, clock: () => now });
    expect((await snapshots.get(18))?.company.activated).toBe(true);
    state.activated = false; // another writer (lobby-admin, another instance)
    now = 999;
    expect((await snapshots.get(18))?.company.activated).toBe(true);
    expect(state.reads).toBe(1);
    now = 1000;
    expect((await snapshots.get(18))?.company.activated).toBe(false);
    expect(state.reads).toBe(2);
  });

  it('when the company is invalidated, then the next read sees the database as it is now', async () => {
    const { state, source } = fakeSource();
    const snapshots = createCompanySnapshots(source, { ttlMs: 60_000, clock: () => 0 });
    await snapshots.get(18);
    state.assignments = [];
    snapshots.invalidate(18);
    expect((await snapshots.get(18))?.assignments).toEqual([]);
    state.activated = false;
    snapshots.invalidate();
    expect((await snapshots.get(18))?.company.activated).toBe(false);
  });

  it('when many calls of one company arrive together, then they share one load', async () => {
    const { state, source } = fakeSource();
    const snapshots = createCompanySnapshots(source, { ttlMs: 1000, clock: () => 0 });
    await Promise.all(Array.from({ length: 20 }, () => snapshots.get(18)));
    expect(state.reads).toBe(1);
  });

  it('when the company does not exist or the load fails, then nothing is kept and the next read asks again', async () => {
    const { state, source } = fakeSource();
    const snapshots = createCompanySnapshots(source, { ttlMs: 1000, clock: () => 0 });
    expect(await snapshots.get(99)).toBeNull();
    expect(await snapshots.get(99)).toBeNull();
    expect(state.reads).toBe(2);
    state.fail = true;
    await expect(snapshots.get(18)).rejects.toThrow('database down');
    state.fail = false;
    expect((await snapshots.get(18))?.company.id).toBe(18);
  });

  it("when the assignments' agents are read, then each assignment has its agents in order, and one without agents none", async () => {
    const { state, source } = fakeSource();
    state.assignments = [...state.assignments, { id: 2, name: 'Support', type: 'queue' }];
    state.agents = [
      { assignmentId: 1, xmppUsername: 'a1' },
      { assignmentId: 1, xmppUsername: 'a2' },
    ];
    const snapshot = await createCompanySnapshots(source, { ttlMs: 1000, clock: () => 0 }).get(18);
    expect(snapshot?.agents.get(1)).toEqual(['a1', 'a2']);
    expect(snapshot?.agents.get(2)).toBeUndefined();
  });

  it('when a host is read twice within the time to live, then the database is read once; any invalidation drops every host', async () => {
    const { state, source } = fakeSource();
    let now = 0;
    const snapshots = createCompanySnapshots(source, { ttlMs: 1000, clock: () => now });
    expect(await snapshots.idByHost('demo.example')).toBe(18);
    expect(await snapshots.idByHost('nobody.example')).toBeNull();
    state.hosts.set('nobody.example', 19); // another writer (lobby-admin sets a company's host)
    expect(await snapshots.idByHost('nobody.example')).toBeNull();
    expect(state.hostReads).toBe(2);
    snapshots.invalidate(18); // a console write of any company: the host may be another's now
    expect(await snapshots.idByHost('nobody.example')).toBe(19);
    state.hosts.delete('demo.example');
    now = 1000;
    expect(await snapshots.idByHost('demo.example')).toBeNull();
    expect(state.hostReads).toBe(4);
  });

  it('when the time to live is 0, then every read goes to the database', async () => {
    const { state, source } = fakeSource();
    const snapshots = createCompanySnapshots(source, { ttlMs: 0, clock: () => 0 });
    await snapshots.get(18);
    await snapshots.get(18);
    expect(state.reads).toBe(2);
  });
});
