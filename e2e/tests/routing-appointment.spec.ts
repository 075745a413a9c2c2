/**
 * Appointment calls: a guest who opens its appointment link reaches only the appointment's
 * agent. Two agents of the same assignment are signed in; only the booked one sees and answers the call.
 */
import { expect, test } from '@playwright/test';
import { launchParticipant } from '../support/browser.ts';
import { queryRows } from '../support/db.ts';
import { agentSignsIn, closeAll, consoleUserJid, screenshot } from '../support/journey.ts';
import { expectMediaFlowing } from '../support/media.ts';
import { bookAppointment, makeAgent } from './routing-support.ts';

test('when a guest calls from its appointment link, then only the appointment agent sees it (badged), answers it and media flows; the other agent never sees it', async ({}, testInfo) => {
  const booked = await makeAgent('Booked', ['Sales', 'Support']);
  const { reference, link } = await bookAppointment(booked.id);
  const bookedAgent = await launchParticipant('booked-agent');
  const otherAgent = await launchParticipant('other-agent');
  const guest = await launchParticipant('guest', { viewport: { width: 1024, height: 768 } });
  const later = await launchParticipant('later-guest');
  try {
    await agentSignsIn(bookedAgent.page, booked);
    await agentSignsIn(otherAgent.page); // the demo agent: Sales and Support too
    const bookedJid = await consoleUserJid(bookedAgent.page);

    await guest.page.goto(link);
    await guest.page.locator('[data-testid="call-button"][data-call-kind="video"]').click();

    const item = bookedAgent.page.getByTestId('queue-item');
    await expect(item).toHaveCount(1);
    const callId = (await item.getAttribute('data-call-id')) ?? '';
    // the presence targets the booked agent's lowercase username and carries the appointment id
    await expect(item).toHaveAttribute('data-presence', `OpenCall|${bookedJid.split('@')[0]?.toLowerCase()}|${callId}`);
    await expect(item).not.toHaveAttribute('data-appointment-id', '');
    await expect(item.getByTestId('appointment-badge')).toBeVisible();
    await screenshot(bookedAgent.page, testInfo, 'routing-appointment-queue');
    await expect(otherAgent.page.getByTestId('queue-empty')).toBeVisible();

    await item.getByTestId('answer-button').click();
    await expect(guest.page.locator('[data-screen="ongoing"]')).toBeVisible();
    await expect(bookedAgent.page.getByTestId('active-call')).toHaveAttribute(
      'data-guest-presence',
      `InCall|${bookedJid}|${callId}`,
    );
    await expectMediaFlowing(guest.page, 'guest');
    await expectMediaFlowing(bookedAgent.page, 'agent');

    const [report] = await queryRows<{ appointment_reference: string | null }>(
      'select appointment_reference from call_reports where call_id = ?',
      [callId],
    );
    expect(report?.appointment_reference).toBe(reference);

    // The other agent's console is live: an ordinary guest's call does reach it, the appointment never did.
    await later.page.goto('/');
    await later.page.getByTestId('assignment-option').filter({ hasText: 'Sales' }).click();
    await later.page.locator('[data-testid="call-button"][data-call-kind="video"]').click();
    const otherQueue = otherAgent.page.getByTestId('queue-item');
    await expect(otherQueue).toHaveCount(1);
    await expect(otherQueue).not.toHaveAttribute('data-call-id', callId);
    await expect(otherQueue.getByTestId('appointment-badge')).toHaveCount(0);
    await screenshot(otherAgent.page, testInfo, 'routing-appointment-other-agent');
  } finally {
    await closeAll(testInfo, bookedAgent, otherAgent, guest, later);
  }
});
