import type { Account } from './accounts.ts';

/**
 * One hold: a pending transfer (TigerBeetle style) that keeps `amount` of an account's balance locked until
 * its owning area posts it (wholly or in part) to another account or voids it. Every locked unit of every
 * account belongs to exactly one hold; the ledger's invariant checks that `locked` equals the sum of the
 * holds on the account.
 *
 * A hold is named by its owning area and a reference the area chooses (spot: the order id; funding: the
 * withdrawal id), so the registry allocates no ids of its own. An area creates the record, the ledger's
 * `hold` moves the money and registers it, and the registry forgets it when its amount reaches zero.
 * `expiresAtMs`, when set, is a command time: at the first envelope whose time reaches it the engine voids
 * what is left (event `holdExpired`) and tells the owning area (`Area.holdExpired`).
 */
export class Hold {
  readonly area: string;
  readonly ref: number;
  readonly account: Account;
  /** What the hold still keeps locked. */
  amount: bigint;
  /** The ReasonCode of the posting that opened the hold. */
  readonly reason: number;
  readonly expiresAtMs: number | undefined;
  /** The registry's links (an intrusive list, so opening and closing a hold allocates and hashes nothing). */
  registryPrevious: Hold | null = null;
  registryNext: Hold | null = null;
  /** True while the registry holds it. */
  open = false;

  constructor(
    area: string,
    ref: number,
    account: Account,
    amount: bigint,
    reason: number,
    expiresAtMs?: number,
  ) {
    this.area = area;
    this.ref = ref;
    this.account = account;
    this.amount = amount;
    this.reason = reason;
    this.expiresAtMs = expiresAtMs;
  }
}

/**
 * The open holds, in the order they were opened. Adding and removing are O(1) pointer updates on the
 * holds themselves; walking is for invariant checks, snapshots and audits.
 */
export class HoldRegistry implements Iterable<Hold> {
  private head: Hold | null = null;
  private tail: Hold | null = null;
  size = 0;

  has(hold: Hold): boolean {
    return hold.open;
  }

  add(hold: Hold): void {
    hold.open = true;
    hold.registryPrevious = this.tail;
    hold.registryNext = null;
    if (this.tail === null) this.head = hold;
    else this.tail.registryNext = hold;
    this.tail = hold;
    this.size += 1;
  }

  delete(hold: Hold): void {
    const previous = hold.registryPrevious;
    const next = hold.registryNext;
    if (previous === null) this.head = next;
    else previous.registryNext = next;
    if (next === null) this.tail = previous;
    else next.registryPrevious = previous;
    hold.registryPrevious = null;
    hold.registryNext = null;
    hold.open = false;
    this.size -= 1;
  }

  /** The oldest open hold; follow `registryNext` for the others (a plain loop, for whole-state walks). */
  first(): Hold | null {
    return this.head;
  }

  /** How many open holds an area owns (walks every hold). */
  countOf(area: string): number {
    let count = 0;
    for (let hold = this.head; hold !== null; hold = hold.registryNext) if (hold.area === area) count += 1;
    return count;
  }

  *[Symbol.iterator](): Iterator<Hold> {
    for (let hold = this.head; hold !== null; hold = hold.registryNext) yield hold;
  }
}

/** Deterministic order of holds: by expiry, then area, then reference. */
export function compareHolds(a: Hold, b: Hold): number {
  const expiry = (a.expiresAtMs ?? 0) - (b.expiresAtMs ?? 0);
  if (expiry !== 0) return expiry;
  if (a.area !== b.area) return a.area < b.area ? -1 : 1;
  return a.ref - b.ref;
}
