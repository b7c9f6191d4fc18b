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

  /**
   * True for a kind of hold that its owning area lists itself (`Area.forEachHold`), so the registry counts
   * it but does not link it into its list. Spot orders are such holds: the book and the order index list
   * them already, and linking each order into one more list cost two write-barrier slow paths per order
   * (a new order stored into the older tail and into the registry). A getter, so that it costs no field.
   */
  get listedByArea(): boolean {
    return false;
  }

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

/** Calls `visit` with each open hold an area lists itself (see `Hold.listedByArea`). */
export type HoldSource = (visit: (hold: Hold) => void) => void;

/**
 * The open holds. Most are linked in the order they were opened; adding and removing are O(1) pointer
 * updates on the holds themselves. Holds their owning area lists itself (`Hold.listedByArea`) are only
 * counted here, and walked through the area's source (`addSource`). Walking is for invariant checks,
 * snapshots and audits.
 */
export class HoldRegistry implements Iterable<Hold> {
  private head: Hold | null = null;
  private tail: Hold | null = null;
  /** Every open hold, linked or listed by its area. */
  size = 0;
  private readonly sources: HoldSource[] = [];

  has(hold: Hold): boolean {
    return hold.open;
  }

  /** Installs the walk of an area that lists its own holds (the kernel does, for `Area.forEachHold`). */
  addSource(source: HoldSource): void {
    this.sources.push(source);
  }

  add(hold: Hold): void {
    hold.open = true;
    this.size += 1;
    if (hold.listedByArea) return;
    hold.registryPrevious = this.tail;
    hold.registryNext = null;
    if (this.tail === null) this.head = hold;
    else this.tail.registryNext = hold;
    this.tail = hold;
  }

  delete(hold: Hold): void {
    hold.open = false;
    this.size -= 1;
    if (hold.listedByArea) return;
    const previous = hold.registryPrevious;
    const next = hold.registryNext;
    if (previous === null) this.head = next;
    else previous.registryNext = next;
    if (next === null) this.tail = previous;
    else next.registryPrevious = previous;
    hold.registryPrevious = null;
    hold.registryNext = null;
  }

  /**
   * Calls `visit` with every open hold: the linked ones in the order they were opened, then each area
   * source's in that area's order. A plain loop over the list, for whole-state walks.
   */
  forEach(visit: (hold: Hold) => void): void {
    for (let hold = this.head; hold !== null; hold = hold.registryNext) visit(hold);
    const sources = this.sources;
    for (let index = 0; index < sources.length; index += 1) (sources[index] as HoldSource)(visit);
  }

  /** How many open holds an area owns (walks every hold). */
  countOf(area: string): number {
    let count = 0;
    this.forEach((hold) => {
      if (hold.area === area) count += 1;
    });
    return count;
  }

  *[Symbol.iterator](): Iterator<Hold> {
    const holds: Hold[] = [];
    this.forEach((hold) => holds.push(hold));
    yield* holds;
  }
}

/** Deterministic order of holds: by expiry, then area, then reference. */
export function compareHolds(a: Hold, b: Hold): number {
  const expiry = (a.expiresAtMs ?? 0) - (b.expiresAtMs ?? 0);
  if (expiry !== 0) return expiry;
  if (a.area !== b.area) return a.area < b.area ? -1 : 1;
  return a.ref - b.ref;
}
