import { describe, expect, it } from 'vitest';
import type { UserRow } from '../../src/repositories/users.ts';
import { seesOpenedCall, seesRouting, seesTransfer, seesTransferAccepted } from '../../src/services/callVisibility.ts';
import type { Viewer } from '../../src/services/callVisibility.ts';
import type { CallOpenedEvent, CallTransferEvent } from '../../src/services/events.ts';

/** Who sees which call: the rule the console's room list and event stream share (services/callVisibility.ts). */
const agent: UserRow = { id: 7, companyId: 1, email: 'a@x', name: 'A', role: 'agent', passwordHash: '', xmppUsername: 'agent7', profileImageId: null };
const viewer: Viewer = { user: agent, jid: 'agent7@lobby', visible: new Set([10]), served: new Set([10]) };
const opened = (e: Partial<CallOpenedEvent>): CallOpenedEvent => ({
  companyId: 1, assignmentId: 10, assignmentName: 'Sales', room: 'r@muc', guestUsername: 'g', callId: 'g--1', reportId: 1, openedAt: 0, ...e,
});
const transfer = (e: Partial<CallTransferEvent>): CallTransferEvent => ({
  companyId: 1, id: 1, callId: 'g--1', room: 'r@muc', guestUsername: 'g', fromName: 'B', fromJid: 'agent8@lobby', toUserId: null, toAssignmentId: null, ...e,
});

describe('call visibility', () => {
  it('when a call opens in an assignment the user sees, then it sees it; another assignment or company, not', () => {
    expect(seesOpenedCall(viewer, opened({}))).toBe(true);
    expect(seesOpenedCall(viewer, opened({ assignmentId: 11 }))).toBe(false);
    expect(seesOpenedCall(viewer, opened({ companyId: 2 }))).toBe(false);
    expect(seesOpenedCall(viewer, opened({ room: null }))).toBe(false);
  });

  it('when an appointment call opens, then only its agent sees it, whatever the assignment', () => {
    expect(seesOpenedCall(viewer, opened({ assignmentId: 11, appointmentAgent: 'agent7' }))).toBe(true);
    expect(seesOpenedCall(viewer, opened({ appointmentAgent: 'agent8' }))).toBe(false);
  });

  it("when a call's routing changes, then users who see its assignment in its company see it", () => {
    expect(seesRouting(viewer, { companyId: 1, assignmentId: 10 })).toBe(true);
    expect(seesRouting(viewer, { companyId: 1, assignmentId: 11 })).toBe(false);
    expect(seesRouting(viewer, { companyId: 2, assignmentId: 10 })).toBe(false);
  });

  it('when a call is transferred, then the user it is for or the agents of the assignment see it, never its sender', () => {
    expect(seesTransfer(viewer, transfer({ toUserId: 7 }))).toBe(true);
    expect(seesTransfer(viewer, transfer({ toAssignmentId: 10 }))).toBe(true);
    expect(seesTransfer(viewer, transfer({ toAssignmentId: 11 }))).toBe(false);
    expect(seesTransfer(viewer, transfer({ toUserId: 7, fromJid: 'agent7@lobby' }))).toBe(false);
    expect(seesTransfer(viewer, transfer({ toUserId: 7, companyId: 2 }))).toBe(false);
    expect(seesTransferAccepted(viewer, { companyId: 1 })).toBe(true);
    expect(seesTransferAccepted(viewer, { companyId: 2 })).toBe(false);
  });
});
