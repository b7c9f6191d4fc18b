// User freezes: an administrator stops a user from trading (placing orders) or from withdrawing, with a
// reason, and lifts it later. Cancelling orders stays possible, so a frozen user can always free their funds.
//
// The check is on the order path, so it reads a copy of the (small) freeze table kept in memory: changes made
// through this process apply at once, changes by another server process within FREEZE_REFRESH_MS.
//
// Routes call it before they act:
//   await freezesOf(app).assertAllowed(user.id, 'trading');      // placing spot orders, flash exchange
//   await freezesOf(app).assertAllowed(user.id, 'withdrawals');  // requesting a withdrawal
// and the back office refuses to approve a pending withdrawal of a user whose withdrawals are frozen.
import type { FastifyInstance } from 'fastify';
import { AppError } from '../http/app-error.ts';
import type { Queryable } from '../store/index.ts';
import type { Actor } from './audit-changes.ts';
import type { FreezeState } from '@fairex/shared';

export type { FreezeState } from '@fairex/shared';
import { recordChange } from './audit-changes.ts';

export type FreezeKind = 'trading' | 'withdrawals';

export const FREEZE_REFRESH_MS = 2_000;

interface FreezeRow {
  user_id: number;
  trading: boolean;
  withdrawals: boolean;
}

export class UserFreezes {
  readonly #db: Queryable;
  readonly #refreshMs: number;
  #frozen = new Map<number, { trading: boolean; withdrawals: boolean }>();
  #loadedAtMs = Number.NEGATIVE_INFINITY;
  #loading: Promise<void> | undefined;

  constructor(db: Queryable, refreshMs = FREEZE_REFRESH_MS) {
    this.#db = db;
    this.#refreshMs = refreshMs;
  }

  async #fresh(): Promise<void> {
    if (Date.now() - this.#loadedAtMs < this.#refreshMs) return;
    this.#loading ??= this.#load().finally(() => {
      this.#loading = undefined;
    });
    await this.#loading;
  }

  async #load(): Promise<void> {
    const { rows } = await this.#db.query<FreezeRow>(
      'select user_id, trading, withdrawals from user_freezes',
    );
    this.#frozen = new Map(
      rows.map((row) => [row.user_id, { trading: row.trading, withdrawals: row.withdrawals }]),
    );
    this.#loadedAtMs = Date.now();
  }

  async isFrozen(userId: number, kind: FreezeKind): Promise<boolean> {
    await this.#fresh();
    return this.#frozen.get(userId)?.[kind] === true;
  }

  /** Refuses, in the user's language, what an administrator froze. */
  async assertAllowed(userId: number, kind: FreezeKind): Promise<void> {
    if (await this.isFrozen(userId, kind)) {
      throw new AppError(kind === 'trading' ? 'freeze.trading' : 'freeze.withdrawals');
    }
  }

  /** The user's freeze as the back office shows it, straight from the table. */
  async state(userId: number): Promise<FreezeState | null> {
    const { rows } = await this.#db.query<{
      trading: boolean;
      withdrawals: boolean;
      reason: string;
      updated_by: string | null;
      updated_at: Date;
    }>(
      `select f.trading, f.withdrawals, f.reason, a.username as updated_by, f.updated_at
         from user_freezes f left join admins a on a.id = f.updated_by where f.user_id = $1`,
      [userId],
    );
    const row = rows[0];
    return row ? { ...row, updated_at: row.updated_at.toISOString() } : null;
  }

  /**
   * Sets what is frozen for a user (both false lifts the freeze), audited with before and after in the same
   * transaction. The reason is required either way: it is what the next administrator reads.
   */
  async set(
    db: Queryable,
    actor: Actor,
    input: { userId: number; trading: boolean; withdrawals: boolean; reason: string },
  ): Promise<void> {
    const { rows } = await db.query<FreezeRow & { reason: string }>(
      'select user_id, trading, withdrawals, reason from user_freezes where user_id = $1 for update',
      [input.userId],
    );
    const before = rows[0]
      ? { trading: rows[0].trading, withdrawals: rows[0].withdrawals }
      : { trading: false, withdrawals: false };
    const after = { trading: input.trading, withdrawals: input.withdrawals };
    if (!after.trading && !after.withdrawals) {
      await db.query('delete from user_freezes where user_id = $1', [input.userId]);
    } else {
      await db.query(
        `insert into user_freezes (user_id, trading, withdrawals, reason, updated_by)
         values ($1, $2, $3, $4, $5)
         on conflict (user_id) do update set trading = excluded.trading, withdrawals = excluded.withdrawals,
           reason = excluded.reason, updated_by = excluded.updated_by, updated_at = now()`,
        [input.userId, after.trading, after.withdrawals, input.reason, actor.adminId],
      );
    }
    await recordChange(db, actor, {
      action: 'user.freeze',
      targetType: 'user',
      targetId: input.userId,
      before,
      after,
      detail: { reason: input.reason },
    });
  }

  /** Applies a change this process just committed, without waiting for the next refresh. */
  applied(userId: number, state: { trading: boolean; withdrawals: boolean }): void {
    if (!state.trading && !state.withdrawals) this.#frozen.delete(userId);
    else this.#frozen.set(userId, state);
  }
}

/** The app's freeze book, built once by the administrator area's plugin (plugin.ts). */
export function freezesOf(app: Pick<FastifyInstance, 'admin'>): UserFreezes {
  return app.admin.freezes;
}
