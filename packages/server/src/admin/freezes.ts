// User freezes: an administrator stops a user from trading, from withdrawing, or everything (full), with a
// reason, and lifts it later (docs/accounts.md, "Freezes").
//
// The freeze itself is engine state: the back office submits the journaled command `setUserFreeze` per kind
// that changes, and the engine refuses a frozen user's stopped commands of every area before their handlers
// run (spot, leverage, seconds contracts, products, P2P, flash, withdrawals), whichever door they came
// through (web, API key). No route checks a freeze by hand; a refusal reaches the user as `freeze.*`
// through submitOrRefuse.
//
// The `user_freezes` table keeps what the engine does not: the reason, who decided and when (the back
// office's lists and the dashboard read it), written in the same transaction as the audit line, once the
// engine command is durable. A full freeze is stored there with both flags set. At every start the rows of
// the table are carried into the engine (carryIntoEngine): one command per kind a row has and the engine
// lacks, so that an upgrade from the time freezes lived only in the table keeps them, and a second start
// submits nothing.
import type { Command, Engine, EngineEvent, FreezeKind } from '@fairex/engine';
import type { FreezeState } from '@fairex/shared';
import type { EngineRunner } from '../engine-runner/runner.ts';
import { submitOrRefuse } from '../engine-runner/submit.ts';
import { AppError } from '../http/app-error.ts';
import type { Queryable, Store } from '../store/index.ts';
import type { Actor } from './audit-changes.ts';
import { recordChange } from './audit-changes.ts';

export type { FreezeState } from '@fairex/shared';
export type { FreezeKind } from '@fairex/engine';

/** What freezes need of the runner: the engine's freeze queries and submitting the command. */
export type FreezeRunner = Pick<EngineRunner<Command, EngineEvent, Engine>, 'submit' | 'engine'>;

/** The kinds as the back office sets them. */
export interface FreezeFlags {
  trading: boolean;
  withdrawals: boolean;
  full: boolean;
}

interface FreezeRow {
  user_id: number;
  trading: boolean;
  withdrawals: boolean;
}

const NONE: FreezeFlags = { trading: false, withdrawals: false, full: false };

function flagsOf(kinds: readonly FreezeKind[]): FreezeFlags {
  return {
    trading: kinds.includes('trading'),
    withdrawals: kinds.includes('withdrawals'),
    full: kinds.includes('full'),
  };
}

export class UserFreezes {
  readonly #db: Queryable;
  readonly #runner: () => FreezeRunner | undefined;

  /** `runner` answers undefined on a server started without the engine (nothing can be frozen there). */
  constructor(db: Queryable, runner: () => FreezeRunner | undefined) {
    this.#db = db;
    this.#runner = runner;
  }

  /** The kinds in force for a user, as the engine holds them. */
  flags(userId: number): FreezeFlags {
    const runner = this.#runner();
    return runner === undefined ? NONE : flagsOf(runner.engine.freeze.kindsOf(userId));
  }

  /** Whether the user's commands of that kind are stopped (a full freeze stops every kind). */
  isFrozen(userId: number, kind: Exclude<FreezeKind, 'full'>): boolean {
    const flags = this.flags(userId);
    return flags.full || flags[kind];
  }

  /**
   * The user's freeze as the back office shows it: the kinds from the engine, the reason and the deciding
   * administrator from the table; null when nothing is frozen.
   */
  async state(userId: number): Promise<FreezeState | null> {
    const flags = this.flags(userId);
    if (!flags.trading && !flags.withdrawals && !flags.full) return null;
    const { rows } = await this.#db.query<{ reason: string; updated_by: string | null; updated_at: Date }>(
      `select f.reason, a.username as updated_by, f.updated_at
         from user_freezes f left join admins a on a.id = f.updated_by where f.user_id = $1`,
      [userId],
    );
    const row = rows[0];
    return {
      ...flags,
      reason: row?.reason ?? '',
      updated_by: row?.updated_by ?? null,
      updated_at: (row?.updated_at ?? new Date(0)).toISOString(),
    };
  }

  /**
   * Sets what is frozen for a user (all false lifts the freeze): first the engine commands for each kind
   * that changes, each durable before anything else is written (a refusal or a runner failure leaves the
   * table as it was); then, in one transaction, the row and the audit line with before and after. The
   * engine is not called inside the transaction, so that the embedded store's one session is never held
   * while the journal commits. The reason is required either way: it is what the next administrator reads.
   */
  async set(
    store: Pick<Store, 'transaction'>,
    actor: Actor,
    input: { userId: number; trading: boolean; withdrawals: boolean; full: boolean; reason: string },
  ): Promise<void> {
    const runner = this.#runner();
    if (runner === undefined) throw new AppError('error.unavailable');
    const before = this.flags(input.userId);
    const after: FreezeFlags = { trading: input.trading, withdrawals: input.withdrawals, full: input.full };
    for (const kind of ['trading', 'withdrawals', 'full'] as const) {
      if (before[kind] === after[kind]) continue;
      await submitOrRefuse(
        runner,
        { type: 'setUserFreeze', userId: input.userId, kind, frozen: after[kind] },
        { awaitProjections: false },
      );
    }
    await store.transaction(async (db) => {
      if (!after.trading && !after.withdrawals && !after.full) {
        await db.query('delete from user_freezes where user_id = $1', [input.userId]);
      } else {
        // A full freeze stops both kinds: the table's flags say so (its lists filter on them).
        await db.query(
          `insert into user_freezes (user_id, trading, withdrawals, reason, updated_by)
           values ($1, $2, $3, $4, $5)
           on conflict (user_id) do update set trading = excluded.trading, withdrawals = excluded.withdrawals,
             reason = excluded.reason, updated_by = excluded.updated_by, updated_at = now()`,
          [
            input.userId,
            after.trading || after.full,
            after.withdrawals || after.full,
            input.reason,
            actor.adminId,
          ],
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
    });
  }

  /**
   * Carries the table's freezes into the engine: for each row, one `setUserFreeze` per kind it sets that the
   * engine does not already stop. Idempotent (a second run submits nothing). Returns the commands submitted.
   */
  async carryIntoEngine(): Promise<number> {
    const runner = this.#runner();
    if (runner === undefined) return 0;
    const { rows } = await this.#db.query<FreezeRow>(
      'select user_id, trading, withdrawals from user_freezes order by user_id',
    );
    let submitted = 0;
    for (const row of rows) {
      const flags = this.flags(row.user_id);
      if (flags.full) continue;
      for (const kind of ['trading', 'withdrawals'] as const) {
        if (!row[kind] || flags[kind]) continue;
        await submitOrRefuse(
          runner,
          { type: 'setUserFreeze', userId: row.user_id, kind, frozen: true },
          { awaitProjections: false },
        );
        submitted += 1;
      }
    }
    return submitted;
  }
}

/** The app's freeze book, built once by the administrator area's plugin (plugin.ts). */
export function freezesOf(app: { admin: { freezes: UserFreezes } }): UserFreezes {
  return app.admin.freezes;
}
