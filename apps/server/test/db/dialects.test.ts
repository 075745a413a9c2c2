import { describe, expect, it } from 'vitest';
import { dialects } from '../helpers/context.ts';

// ./scripts/test runs the per-dialect tests twice: all of them on SQLite in the unit stage, then on
// PostgreSQL only in the unit-pg stage (LOBBY_TEST_PG_ONLY=1), not the SQLite half a second time.
describe('the dialects a per-dialect test runs on', () => {
  const url = 'postgres://lobby@127.0.0.1:5433/lobby_test';

  it('is SQLite alone without a PostgreSQL URL, whatever LOBBY_TEST_PG_ONLY says', () => {
    expect(dialects({})).toEqual(['sqlite']);
    expect(dialects({ LOBBY_TEST_PG_ONLY: '1' })).toEqual(['sqlite']);
  });

  it('is SQLite and PostgreSQL with a PostgreSQL URL', () => {
    expect(dialects({ LOBBY_TEST_PG_URL: url })).toEqual(['sqlite', 'postgres']);
  });

  it('is PostgreSQL alone in the unit-pg stage (LOBBY_TEST_PG_ONLY=1)', () => {
    expect(dialects({ LOBBY_TEST_PG_URL: url, LOBBY_TEST_PG_ONLY: '1' })).toEqual(['postgres']);
  });
});
