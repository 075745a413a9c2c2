import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against the schema as it was */

/**
 * call_reports.agent_answered_at: when the server first saw an agent of the call's company
 * take the call — its media grant (`POST /api/console/calls/{callId}/media`: the Janus room's pin and
 * token, or for a p2p call the go-ahead for the Jingle session the console opens when answering). It is
 * the server's own observation, so the rules that need "the call was answered" (a rating) read it, and
 * never call_answered_at, which the guest's browser reports (`PUT /call-report/update-timestamp`) and
 * which stays the guest-reported moment for the reports' talk times.
 *
 * Not backfilled from call_answered_at: that would carry the guest's word over as the server's. A call
 * answered before this migration can no longer be rated (the guest rates right after the call).
 */
export function agentAnswered() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('call_reports').addColumn('agent_answered_at', 'bigint').execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('call_reports').dropColumn('agent_answered_at').execute();
    },
  };
}
