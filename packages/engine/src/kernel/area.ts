// The area interface: everything one product area (ledger, spot, funding, market data; later leverage,
// seconds contracts, staking, P2P) gives the kernel. An area is one folder with one `area.ts` exporting a
// value made by `defineArea`, registered in the one list in `src/areas.ts`. The kernel keeps sequence,
// time, idempotency, the ledger and the snapshot document; everything else belongs to an area.
import type { Account } from '../ledger/accounts.ts';
import type { Hold } from '../ledger/holds.ts';
import type { Ledger } from '../ledger/ledger.ts';
import type { EngineOptions } from '../state.ts';
import type { CommandContext, PriceUpdate } from './context.ts';
import type { Counter } from './counters.ts';
import type { FreezeDeclaration, UserFreezeBook } from './freezes.ts';
import type { JournalForm } from './journal-form.ts';
import type { Port } from './ports.ts';

/** What an area gets when its state is created (also on restore, before its snapshot section is read). */
export interface AreaSetup {
  readonly options: EngineOptions;
  readonly bookImplementation: 'fast' | 'reference';
  readonly ledger: Ledger;
  /** The command time in force (for queries; handlers read `ctx.timeMs`). */
  commandTimeMs(): number;
  /**
   * An id counter written in the snapshot's `counters` object. A counter is written once it has moved from
   * its start value 1 (the four counters of snapshot version 1 are always written), so an area added later
   * leaves the state hash of a state that never used it unchanged.
   */
  counter(name: string): Counter;
  /**
   * What another area answers through a port the reading area declares (kernel/ports.ts), for its state's
   * queries and readers (handlers use `ctx.port`). Not while states are created: it resolves once every
   * area's queries exist.
   */
  port<Q>(target: Port<Q>): Q;
  /** Every user's freezes, kept by the kernel (checked before handlers; set by the freeze area). */
  readonly freezes: UserFreezeBook;
}

/** One command type's handler. `owner` names whom an idempotency key is scoped to (absent: the admin scope). */
export interface CommandSpec<S, C> {
  /**
   * Validates and applies. Returns ResultCode.ok, or a refusal code having changed nothing (no event, no
   * posting, no state). Must not throw for bad input: a throw is an invariant violation.
   */
  apply(ctx: CommandContext, state: S, command: C): number;
  owner?(command: C): unknown;
}

/** Snapshot sections by top-level key. A key whose value is undefined is not written. */
export type SnapshotSections = Record<string, unknown>;

export interface Area<S = unknown, Q = unknown> {
  /** Unique; the key under `engine.<name>` for its queries, and its hold owner name. */
  readonly name: string;
  /** Handlers by command type. Types are unique across areas. */
  readonly commands: Readonly<Record<string, CommandSpec<S, never>>>;
  /**
   * Which freeze kinds stop each command (kernel/freezes.ts): `frozenBy(kinds, user)` or, explicitly,
   * `NOT_FROZEN` (cancels, closes, receipts, decisions, configuration). The kernel refuses a stopped command
   * of a frozen user before its handler runs; a structure test requires an entry for every command.
   */
  readonly freezes?: Readonly<Record<string, FreezeDeclaration<S>>>;
  createState(setup: AreaSetup): S;
  /** Read-only queries, exposed as `engine.<name>` (other areas read them through ports, kernel/ports.ts). Proportional to what they return. */
  queries(state: S): Q;
  /**
   * Snapshot sections of this area. A new area writes one key, its name, and only when it has something to
   * keep (return `{}` or undefined values otherwise), so that adding it leaves existing state hashes as they
   * were. Keys must be canonical: fixed order, ids ascending.
   */
  writeSnapshot?(state: S): SnapshotSections;
  /**
   * The top-level snapshot keys the area writes and reads (default: its name). The kernel refuses a write
   * of any other key, and a snapshot holding a key no installed area declares (its state would be lost).
   */
  readonly sections?: readonly string[];
  /** Restores from the document's sections (all keys; read your own). Re-creates the holds it rebuilds. */
  readSnapshot?(state: S, document: Readonly<SnapshotSections>): void;
  /**
   * True when the area re-creates its holds from its own rows in `readSnapshot` (spot orders' locked
   * amounts, withdrawals); its holds are then not written again. Holds of other areas go to the snapshot's
   * `holds` section.
   */
  readonly rebuildsHolds?: boolean;
  /**
   * Further hold owner names of the area, besides its name (default none): an area holding more than one
   * amount per record (seconds contracts: the stake, the fee and the house reserve of one order) names each
   * kind, so every hold keeps the record's id as its ref (and as the balance events' reference).
   */
  readonly holdOwners?: readonly string[];
  /**
   * Lists the area's open holds of a kind that `Hold.listedByArea` marks (spot: its orders), which the
   * ledger's registry counts but does not link: whole-state walks (invariants, snapshots, audits) reach them
   * through this. Every such hold open between two commands must be listed, exactly once.
   */
  forEachHold?(state: S, visit: (hold: Hold) => void): void;
  /** Throws (via invariant) when a rule of the area does not hold. Walks the area's whole state. */
  checkInvariants?(state: S, ledger: Ledger): void;
  /** Funds of `account` the area needs to stay where they are (default 0). See Ledger.reservedFunds. */
  reservedFunds?(state: S, account: Account): bigint;
  /** Field names that hold bigint amounts in the area's commands, events and replies (for the codec). */
  readonly bigintFields?: readonly string[];
  /**
   * Compact journal lines for the area's most frequent commands (journal-form.ts): each form's tag is unique
   * among the engine's areas. A command without one, or one its form cannot hold, is journaled as JSON.
   */
  readonly journalForms?: readonly JournalForm[];
  /** The area's own result codes (name -> number, in a range of its own); checked unique at creation. */
  readonly resultCodes?: Readonly<Record<string, number>>;
  /** The area's reason codes for balance events (name -> number, its own hundreds). */
  readonly reasonCodes?: Readonly<Record<string, number>>;
  /**
   * Called when an envelope's time advances, before its command (and after expired holds were voided). May
   * post and emit events; those stay even when the envelope's command is refused (Outcome.timeEvents).
   * Called on every envelope whose time advances, so it returns at once when the area has nothing due; it is
   * called as a plain function (write it as an arrow function: `this` is not the area).
   */
  onCommandTime?(ctx: CommandContext, state: S): void;
  /** Called when the price area (prices/) records a price (an index price or a price sample) of a market. */
  onPrice?(ctx: CommandContext, state: S, price: PriceUpdate): void;
  /**
   * Called after each accepted command (result ok), once its handler has run, for the areas that define it,
   * in the order of the areas' list: for work that gathers what a command did through other hooks and acts
   * once per command (the transparency log appends one leaf for every price sample a command recorded).
   * Returns at once when the area has nothing pending. Its events follow the command's. Not called for a
   * refused command (which changed nothing) nor for an idempotent repeat.
   */
  onCommandEnd?(ctx: CommandContext, state: S): void;
  /**
   * One of this area's holds expired: the ledger has voided `amount`, what it still held (event
   * `holdExpired` and the release emitted; the hold is closed). The area forgets or settles whatever the
   * hold stood for.
   */
  holdExpired?(ctx: CommandContext, state: S, hold: Hold, amount: bigint): void;
  /** Counts for monitoring, merged into `engine.stats()`. */
  stats?(state: S): Record<string, number>;
}

/** Any area, whatever its state and queries. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyArea = Area<any, any>;

/** The queries type of an area. */
export type QueriesOf<A> = A extends Area<infer _S, infer Q> ? Q : never;

/** `engine.<name>` for every area of a list. */
export type AreaQueries<A extends readonly AnyArea[]> = {
  readonly [K in A[number] as K['name']]: QueriesOf<K>;
};

/**
 * Declares an area; keeps its name as a literal type so `engine.<name>` is typed. Handlers are typed per
 * command through `command<C>(...)`.
 */
export function defineArea<const N extends string, S, Q>(
  area: Area<S, Q> & { readonly name: N },
): Area<S, Q> & {
  readonly name: N;
} {
  return area;
}

/** A handler for one command type of an area's state. */
export function command<S, C>(
  apply: (ctx: CommandContext, state: S, command: C) => number,
  owner?: (command: C) => unknown,
): CommandSpec<S, never> {
  const spec: CommandSpec<S, C> = owner === undefined ? { apply } : { apply, owner };
  return spec as unknown as CommandSpec<S, never>;
}
