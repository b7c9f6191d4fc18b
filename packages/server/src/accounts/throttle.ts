// Brute-force limits counted in SQL, so that they hold across restarts and across server processes:
// every counted event (a failed login, a wrong code, a code sent) is a row; a limit is "at most `max`
// events of a scope for one subject within `windowMs`".
import type { Queryable } from '../store/index.ts';

export interface Limit {
  scope: string;
  max: number;
  windowMs: number;
}

export interface LimitState {
  blocked: boolean;
  /** When blocked: how long until the oldest counted event leaves the window. */
  retryAfterMs: number;
}

/** Events older than this are deleted; it must be at least the longest window of any limit. */
const RETENTION_MS = 24 * 3_600_000;
const PRUNE_EVERY = 500;

export class Throttle {
  readonly #db: Queryable;
  #recordsSincePrune = 0;

  constructor(db: Queryable) {
    this.#db = db;
  }

  /** `db`: the transaction that holds the subject's lock when the check and the record are one step. */
  async state(limit: Limit, subject: string, db: Queryable = this.#db): Promise<LimitState> {
    const { rows } = await db.query<{ count: number; oldest: Date | null }>(
      `select count(*)::int as count, min(created_at) as oldest
         from (select created_at from auth_throttle
                where scope = $1 and subject = $2 and created_at > now() - make_interval(secs => $3)
                order by created_at desc limit $4) recent`,
      [limit.scope, subject, limit.windowMs / 1000, limit.max],
    );
    const row = rows[0];
    if (!row || row.count < limit.max || row.oldest === null) return { blocked: false, retryAfterMs: 0 };
    // The window reopens when the oldest of the last `max` events leaves it.
    const retryAfterMs = Math.max(1000, row.oldest.getTime() + limit.windowMs - Date.now());
    return { blocked: true, retryAfterMs };
  }

  /** How many events of a subject the window holds, and how long ago the latest was (by the database clock). */
  async recent(
    scope: string,
    subject: string,
    windowMs: number,
    db: Queryable = this.#db,
  ): Promise<{ count: number; sinceLatestMs: number }> {
    const { rows } = await db.query<{ count: number; since_latest_ms: number | null }>(
      `select count(*)::int as count,
              (extract(epoch from (now() - max(created_at))) * 1000)::float8 as since_latest_ms
         from auth_throttle
        where scope = $1 and subject = $2 and created_at > now() - make_interval(secs => $3)`,
      [scope, subject, windowMs / 1000],
    );
    const row = rows[0];
    return { count: row?.count ?? 0, sinceLatestMs: row?.since_latest_ms ?? Number.POSITIVE_INFINITY };
  }

  /** Counts one event; answers its row's id (a reservation to `release` if what it counted did not happen). */
  async record(scope: string, subject: string, db: Queryable = this.#db): Promise<number> {
    const { rows } = await db.query<{ id: number }>(
      'insert into auth_throttle (scope, subject) values ($1, $2) returning id',
      [scope, subject],
    );
    this.#recordsSincePrune += 1;
    if (this.#recordsSincePrune >= PRUNE_EVERY) {
      this.#recordsSincePrune = 0;
      await db.query('delete from auth_throttle where created_at < now() - make_interval(secs => $1)', [
        RETENTION_MS / 1000,
      ]);
    }
    return rows[0]?.id ?? 0;
  }

  /** Gives back events counted by `record` (a reservation whose action failed). */
  async release(ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    await this.#db.query('delete from auth_throttle where id = any($1::int[])', [ids]);
  }

  /** Forgets a subject's events, e.g. failed logins after a successful one. */
  async clear(scope: string, subject: string, db: Queryable = this.#db): Promise<void> {
    await db.query('delete from auth_throttle where scope = $1 and subject = $2', [scope, subject]);
  }

  /**
   * Settles a judged attempt (a code) in the transaction that judged it: a wrong one counts as one failure of
   * the subject, a right one forgets its failures. Answers whether it was right.
   */
  async settle(scope: string, subject: string, right: boolean, db: Queryable): Promise<boolean> {
    if (right) await this.clear(scope, subject, db);
    else await this.record(scope, subject, db);
    return right;
  }
}

/** Minutes to show in a "try again in N minutes" message: at least one. */
export function minutesToWait(retryAfterMs: number): number {
  return Math.max(1, Math.ceil(retryAfterMs / 60_000));
}
