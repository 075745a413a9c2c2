import path from 'node:path';
import SQLite from 'better-sqlite3';

/**
 * One Lobby server per SQLite database (docs/operations.md "Shared state: jobs, limits and files"): its
 * jobs, limits and files are shared through the database only on PostgreSQL, so a second server on the
 * same file would run every job twice. The server holds an exclusive SQLite lock on a companion file
 * (`<database>.instance-lock`) for as long as it lives; the system releases it when the process dies,
 * however it dies, so a crashed server never blocks the next. Tools (lobby-admin) and the Janus gate open
 * the database without it.
 */
export interface InstanceLock {
  release(): void;
}

export class InstanceLockedError extends Error {}

/** `databaseUrl`: DATABASE_URL. Null for PostgreSQL and in-memory SQLite, which need no lock. */
export function lockSqliteInstance(databaseUrl: string): InstanceLock | null {
  if (!databaseUrl.startsWith('sqlite:')) return null;
  const file = databaseUrl.slice('sqlite:'.length);
  if (file === ':memory:') return null;
  const lockFile = `${path.resolve(file)}.instance-lock`;
  // no busy wait: a server holding it holds it for its whole life
  const connection = new SQLite(lockFile, { timeout: 0 });
  try {
    connection.pragma('locking_mode = EXCLUSIVE');
    // a write in a transaction left open: the exclusive lock stays until the connection closes
    connection.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    connection.close();
    if ((error as { code?: string }).code === 'SQLITE_BUSY') {
      throw new InstanceLockedError(
        `another Lobby server is already running on ${path.resolve(file)} (it holds ${lockFile}); SQLite serves one server only — stop it, or use PostgreSQL to run several (docs/operations.md "Scaling")`,
      );
    }
    throw error;
  }
  return {
    release() {
      connection.close();
    },
  };
}
