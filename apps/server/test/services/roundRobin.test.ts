import { describe, expect, it } from 'vitest';
import { RoundRobin, type CallRouting, type RoutingTimers } from '../../src/services/roundRobin.ts';

/** A hand-driven clock: advance(ms) runs the timers that fall due, in order. */
function fakeTimers() {
  let now = 1_000_000;
  let seq = 0;
  const pending = new Map<number, { at: number; fn: () => void }>();
  const timers: RoutingTimers & { advance(ms: number): void } = {
    now: () => now,
    setTimeout(fn, ms) {
      seq += 1;
      pending.set(seq, { at: now + ms, fn });
      return seq;
    },
    clearTimeout(handle) {
      pending.delete(handle as number);
    },
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const due = [...pending.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        pending.delete(due[0]);
        now = due[1].at;
        due[1].fn();
      }
      now = end;
    },
  };
  return timers;
}

function setup() {
  const timers = fakeTimers();
  const published: CallRouting[] = [];
  const rr = new RoundRobin({ timers, publish: (r) => published.push(r) });
  const agent = (userId: number, assignmentIds = [1], companyId = 18) =>
    rr.connect({ userId, companyId, xmppUsername: `agent-${userId}`, assignmentIds });
  return { timers, published, rr, agent };
}

const offeredTo = (r: CallRouting | null) => (r?.state === 'offered' ? r.offeredTo : r?.state);

describe('round robin offering', () => {
  it('when a call opens, then it is offered to one available agent of its assignment with the offer deadline', () => {
    const { rr, agent, published } = setup();
    agent(1);
    agent(2);
    agent(3, [2]); // another assignment
    const routing = rr.callOpened({ callId: 'c1', companyId: 18, assignmentId: 1, offerSeconds: 20 });
    expect(routing).toEqual({ callId: 'c1', companyId: 18, assignmentId: 1, state: 'offered', offeredTo: 'agent-1', expiresAt: 1_000_000 + 20_000, offerMs: 20_000 });
    expect(published).toEqual([routing]);
  });

  it('when the offer times out, then the call moves to the next agent, and after everyone it is open to all', () => {
    const { rr, agent, timers } = setup();
    agent(1);
    agent(2);
    rr.callOpened({ callId: 'c1', companyId: 18, assignmentId: 1, offerSeconds: 20 });
    timers.advance(19_999);
    expect(offeredTo(rr.routing('c1'))).toBe('agent-1');
    timers.advance(1);
    expect(offeredTo(rr.routing('c1'))).toBe('agent-2');
    expect(rr.routing('c1')?.expiresAt).toBe(timers.now() + 20_000);
    timers.advance(20_000);
    expect(rr.routing('c1')).toMatchObject({ state: 'open', offeredTo: null, expiresAt: null });
    timers.advance(60_000); // open stays open: nobody is offered it twice
    expect(rr.routing('c1')?.state).toBe('open');
  });

  it('when the offered agent declines, then the next one is offered at once; another agent cannot decline for it', () => {
    const { rr, agent } = setup();
    agent(1);
    agent(2);
    rr.callOpened({ callId: 'c1', companyId: 18, assignmentId: 1 });
    expect(rr.decline('c1', 2)).toBe('notOffered');
    expect(offeredTo(rr.routing('c1'))).toBe('agent-1');
    expect(rr.decline('c1', 1)).toBe('moved');
    expect(offeredTo(rr.routing('c1'))).toBe('agent-2');
    expect(rr.decline('nope', 1)).toBe('unknown');
  });

  it('when agents are away, busy or offline, then they are skipped; with nobody available the call is open', () => {
    const { rr, agent } = setup();
    agent(1);
    agent(2);
    const close3 = agent(3);
    rr.setAvailability(1, { away: true, busy: false });
    rr.setAvailability(2, { away: false, busy: true });
    close3();
    expect(rr.callOpened({ callId: 'c1', companyId: 18, assignmentId: 1 }).state).toBe('open');
    rr.setAvailability(2, { away: false, busy: false });
    expect(offeredTo(rr.callOpened({ callId: 'c2', companyId: 18, assignmentId: 1 }))).toBe('agent-2');
  });

  it('when the offered agent goes away or closes its console, then the call moves on immediately', () => {
    const { rr, agent } = setup();
    const close1 = agent(1);
    agent(2);
    agent(3);
    rr.callOpened({ callId: 'c1', companyId: 18, assignmentId: 1 });
    rr.setAvailability(1, { away: true, busy: false });
    expect(offeredTo(rr.routing('c1'))).toBe('agent-2');
    rr.callOpened({ callId: 'c2', companyId: 18, assignmentId: 1 });
    expect(offeredTo(rr.routing('c2'))).toBe('agent-3');
    close1();
    // agent 1 left; c1 and c2 stay with their agents
    expect(offeredTo(rr.routing('c1'))).toBe('agent-2');
  });

  it('when one agent has two consoles open and closes one, then it still gets offers', () => {
    const { rr, agent } = setup();
    const first = agent(1);
    agent(1);
    first();
    expect(offeredTo(rr.callOpened({ callId: 'c1', companyId: 18, assignmentId: 1 }))).toBe('agent-1');
  });

  it('when calls follow each other, then the first offer goes round the agents in turn', () => {
    const { rr, agent } = setup();
    agent(3);
    agent(1);
    agent(2);
    const first = ['a', 'b', 'c', 'd'].map((id) => offeredTo(rr.callOpened({ callId: id, companyId: 18, assignmentId: 1 })));
    expect(first).toEqual(['agent-1', 'agent-2', 'agent-3', 'agent-1']);
  });

  it('when the call is answered or ended, then it leaves the routing and its timer never fires', () => {
    const { rr, agent, timers, published } = setup();
    agent(1);
    agent(2);
    rr.callOpened({ callId: 'c1', companyId: 18, assignmentId: 1, offerSeconds: 5 });
    rr.callClosed('c1');
    timers.advance(60_000);
    expect(rr.routing('c1')).toBeNull();
    expect(published).toHaveLength(1);
  });

  it("when agents of another company serve an assignment with the same id, then they are never offered this company's calls", () => {
    const { rr, agent } = setup();
    agent(1, [1], 99);
    expect(rr.callOpened({ callId: 'c1', companyId: 18, assignmentId: 1 }).state).toBe('open');
  });
});

describe('round robin availability before the console connects', () => {
  it('when an agent said away before its event stream opened, then it is still skipped once connected', () => {
    const { rr, agent } = setup();
    rr.setAvailability(1, { away: true, busy: false });
    agent(1);
    agent(2);
    expect(offeredTo(rr.callOpened({ callId: 'c1', companyId: 18, assignmentId: 1 }))).toBe('agent-2');
  });
});
