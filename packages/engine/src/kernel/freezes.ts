// User freezes: what an administrator stopped a user from doing, kept by the kernel and checked before any
// handler runs. The freeze area (src/freeze/) owns the command that sets and lifts them and their snapshot
// section; every area declares, per command, which kinds stop it (Area.freezes). A freeze refuses; it never
// moves money: what a user holds stays where it is and closing or reducing risk stays possible.

/**
 * `trading`: new risk (orders, positions, contracts, purchases, P2P ads and takes, flash).
 * `withdrawals`: value leaving the user's reach (withdrawals, selling coins through P2P escrow).
 * `full`: everything the two others stop, and the commands that declare `full` themselves (moving funds
 * between the user's own wallets).
 */
export const FREEZE_KINDS = ['trading', 'withdrawals', 'full'] as const;
export type FreezeKind = (typeof FREEZE_KINDS)[number];

const KIND_BITS: Readonly<Record<FreezeKind, number>> = { trading: 1, withdrawals: 2, full: 4 };

/** The bit set of a list of kinds. */
export function freezeMask(kinds: readonly FreezeKind[]): number {
  let mask = 0;
  for (const kind of kinds) mask |= KIND_BITS[kind];
  return mask;
}

/** The kinds of a bit set, in the order of FREEZE_KINDS. */
export function freezeKindsOf(mask: number): FreezeKind[] {
  return FREEZE_KINDS.filter((kind) => (mask & KIND_BITS[kind]) !== 0);
}

export function isFreezeKind(value: unknown): value is FreezeKind {
  return typeof value === 'string' && (FREEZE_KINDS as readonly string[]).includes(value);
}

/**
 * A command's freeze rule: whose freeze counts (the user it acts for; anything but a positive integer, a
 * system owner or the back office, is never frozen) and which kinds stop it, fixed or read from the area's
 * state (a P2P take stops for `withdrawals` only when the taker sells).
 */
export interface FreezeRule<S = unknown, C = unknown> {
  readonly kinds: readonly FreezeKind[] | ((state: S, command: C) => readonly FreezeKind[]);
  user(command: C, state: S): unknown;
}

/** The explicit "no kind stops this command": cancels, closes, receipts, decisions, configuration. */
export const NOT_FROZEN = 'none';
export type FreezeDeclaration<S = unknown> = FreezeRule<S, never> | typeof NOT_FROZEN;

/** A freeze rule for one command type of an area's state. */
export function frozenBy<S, C>(
  kinds: readonly FreezeKind[] | ((state: S, command: C) => readonly FreezeKind[]),
  user: (command: C, state: S) => unknown,
): FreezeDeclaration<S> {
  const rule: FreezeRule<S, C> = { kinds, user };
  return rule as unknown as FreezeRule<S, never>;
}

/** The result codes of a refusal by freeze (the freeze area's block, 3500s). */
export const FreezeResultCode = {
  /** The user is frozen for trading. */
  userFrozenForTrading: 3500,
  /** The user is frozen for withdrawals (and selling through P2P). */
  userFrozenForWithdrawals: 3501,
  /** The user's account is frozen. */
  userFrozenFully: 3502,
  /** `setUserFreeze` names no freeze kind. */
  invalidFreezeKind: 1500,
} as const;

/** Every user's freezes as bit sets; users with none are absent. */
export class UserFreezeBook {
  readonly #masks = new Map<number, number>();

  get size(): number {
    return this.#masks.size;
  }

  mask(userId: number): number {
    return this.#masks.get(userId) ?? 0;
  }

  kinds(userId: number): FreezeKind[] {
    return freezeKindsOf(this.mask(userId));
  }

  /** Sets or lifts one kind; returns the user's bit set after. */
  set(userId: number, kind: FreezeKind, frozen: boolean): number {
    const before = this.mask(userId);
    const after = frozen ? before | KIND_BITS[kind] : before & ~KIND_BITS[kind];
    if (after === 0) this.#masks.delete(userId);
    else this.#masks.set(userId, after);
    return after;
  }

  /** Users ascending with their kinds (the snapshot's canonical order). */
  entries(): [userId: number, kinds: FreezeKind[]][] {
    return [...this.#masks.keys()]
      .sort((a, b) => a - b)
      .map((userId) => [userId, freezeKindsOf(this.mask(userId))]);
  }

  clear(): void {
    this.#masks.clear();
  }

  /**
   * The refusal code for a command whose rule names `stops` (a bit set) acted on by a user frozen with
   * `frozen`, or 0. A full freeze stops every command any kind stops.
   */
  static refusal(frozen: number, stops: number): number {
    if (frozen === 0 || stops === 0) return 0;
    if ((frozen & KIND_BITS.full) !== 0) return FreezeResultCode.userFrozenFully;
    if ((frozen & stops & KIND_BITS.trading) !== 0) return FreezeResultCode.userFrozenForTrading;
    if ((frozen & stops & KIND_BITS.withdrawals) !== 0) return FreezeResultCode.userFrozenForWithdrawals;
    return 0;
  }
}
