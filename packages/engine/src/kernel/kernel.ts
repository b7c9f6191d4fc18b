import type { EngineEvent } from '../events.ts';
import { IdempotencyStore } from '../idempotency.ts';
import { fail, invariant } from '../invariant.ts';
import { Hold } from '../ledger/holds.ts';
import { Ledger } from '../ledger/ledger.ts';
import { LedgerReasonCode } from '../ledger/reason-codes.ts';
import { ResultCode } from '../result-codes.ts';
import type { BookImplementation, EngineOptions } from '../state.ts';
import type { AnyArea, AreaSetup, CommandSpec, QueriesOf } from './area.ts';
import type { CommandContext, PriceUpdate } from './context.ts';
import { Counters } from './counters.ts';
import { NOT_FROZEN, UserFreezeBook, freezeMask } from './freezes.ts';
import { PortTable } from './ports.ts';
import type { Port, PortBinding } from './ports.ts';
import type { FreezeDeclaration, FreezeKind } from './freezes.ts';

/** One installed area: its definition, its state slice and its queries. */
type Installed = { readonly area: AnyArea; readonly state: unknown; readonly queries: unknown };
type TimeHook = (ctx: CommandContext, state: unknown) => void;
type Handler = {
  readonly spec: CommandSpec<unknown, unknown>;
  readonly state: unknown;
  /** Its freeze rule (Area.freezes); undefined when the area declares none for it. */
  freeze?: FreezeDeclaration<unknown>;
  /** The kinds of a fixed rule as a bit set (0 for a rule that reads the state). */
  freezeStops?: number;
};

/** The snapshot's top-level keys the kernel itself writes; no area may take them. */
export const SNAPSHOT_KERNEL_KEYS: ReadonlySet<string> = new Set([
  'format',
  'version',
  'lastSeq',
  'timeMs',
  'options',
  'counters',
  'idempotency',
  'holds',
]);

/**
 * The engine's kernel: the state every area shares (sequence, time, options, idempotency keys, the ledger,
 * id counters) and the installed areas with their state slices, handlers and hooks. It is also the one
 * CommandContext handed to every handler. Knows no area by name.
 */
export class Kernel implements CommandContext {
  readonly options: EngineOptions;
  readonly bookImplementation: BookImplementation;
  readonly ledger = new Ledger();
  readonly counters = new Counters();
  readonly freezes = new UserFreezeBook();
  readonly idempotency: IdempotencyStore;
  readonly areas: readonly Installed[];
  readonly bigintFields: ReadonlySet<string>;
  /** The area owning each top-level snapshot section (Area.sections). */
  readonly sectionOwners = new Map<string, string>();
  /** The last accepted envelope's sequence number. */
  lastSeq = 0;
  seq = 0;
  /** The command time in force: never decreases, even when a later envelope carries an earlier time. */
  timeMs = 0;
  /** The reply of the command being applied. */
  replyValue: unknown = undefined;
  private readonly handlers = new Map<string, Handler>();
  private readonly byArea = new Map<AnyArea, Installed>();
  private readonly byName = new Map<string, Installed>();
  /** The ports the areas read each other through (kernel/ports.ts), bound by the composition. */
  private readonly ports: PortTable;
  /** The installed area owning each hold owner name (its name and its Area.holdOwners). */
  private readonly byHoldOwner = new Map<string, Installed>();
  /**
   * The areas' `onCommandTime` hooks with their states. The first two have call sites of their own in
   * `commandTimeAdvanced` (each sees one function, which the JIT inlines: a check that the area has nothing
   * due costs a few instructions, not a call through a shared site), the others are called in a loop.
   */
  private readonly timeHook0: TimeHook | null;
  private readonly timeHookState0: unknown;
  private readonly timeHook1: TimeHook | null;
  private readonly timeHookState1: unknown;
  private readonly moreTimeHooks: readonly TimeHook[];
  private readonly moreTimeHookStates: readonly unknown[];
  private readonly priceHooks: Installed[];
  /** The areas' `onCommandEnd` hooks and their states (empty for an engine without one: no call at all). */
  private readonly endHooks: readonly TimeHook[];
  private readonly endHookStates: readonly unknown[];

  constructor(
    areas: readonly AnyArea[],
    options: EngineOptions,
    bookImplementation: BookImplementation,
    ports: readonly PortBinding<never>[] = [],
  ) {
    this.ports = new PortTable(ports, () =>
      Object.fromEntries([...this.byName].map(([name, slot]) => [name, slot.queries])),
    );
    this.options = options;
    this.bookImplementation = bookImplementation;
    this.idempotency = new IdempotencyStore(options.idempotencyWindowMs, options.idempotencyMaxKeys);
    const setup: AreaSetup = {
      options,
      bookImplementation,
      ledger: this.ledger,
      commandTimeMs: () => this.timeMs,
      counter: (name) => this.counters.counter(name),
      port: (target) => this.ports.read(target),
      freezes: this.freezes,
    };
    const installed: Installed[] = [];
    const fields = new Set<string>();
    const resultCodes = new Map<number, string>(
      Object.entries(ResultCode).map(([name, code]) => [code, name]),
    );
    const reasonCodes = new Map<number, string>();
    for (const area of areas) {
      invariant(!this.byName.has(area.name), `area ${area.name} is listed twice`);
      const state: unknown = area.createState(setup);
      const slot: Installed = { area, state, queries: undefined };
      installed.push(slot);
      this.byArea.set(area, slot);
      this.byName.set(area.name, slot);
      for (const owner of [area.name, ...(area.holdOwners ?? [])]) {
        invariant(!this.byHoldOwner.has(owner), `hold owner ${owner} of ${area.name} is taken`);
        this.byHoldOwner.set(owner, slot);
      }
      for (const [type, spec] of Object.entries(area.commands)) {
        invariant(!this.handlers.has(type), `command ${type} has two areas`);
        this.handlers.set(type, { spec: spec as CommandSpec<unknown, unknown>, state });
      }
      for (const [type, rule] of Object.entries(area.freezes ?? {})) {
        const handler = this.handlers.get(type);
        invariant(
          handler !== undefined && Object.hasOwn(area.commands, type),
          `freeze rule ${type} of ${area.name} names no command of the area`,
        );
        handler.freeze = rule as FreezeDeclaration<unknown>;
        handler.freezeStops =
          rule === NOT_FROZEN || typeof rule.kinds === 'function' ? 0 : freezeMask(rule.kinds);
      }
      for (const section of area.sections ?? [area.name]) {
        invariant(
          !SNAPSHOT_KERNEL_KEYS.has(section) && !this.sectionOwners.has(section),
          `snapshot section ${section} of ${area.name} is taken`,
        );
        this.sectionOwners.set(section, area.name);
      }
      for (const field of area.bigintFields ?? []) fields.add(field);
      for (const [name, code] of Object.entries(area.resultCodes ?? {})) {
        invariant(
          !resultCodes.has(code),
          `result code ${code} (${name}) is taken by ${resultCodes.get(code)}`,
        );
        resultCodes.set(code, name);
      }
      for (const [name, code] of Object.entries(area.reasonCodes ?? {})) {
        invariant(
          !reasonCodes.has(code),
          `reason code ${code} (${name}) is taken by ${reasonCodes.get(code)}`,
        );
        reasonCodes.set(code, name);
      }
    }
    // Queries are built once every state exists, so that one area's queries may read another's.
    for (const slot of installed) {
      (slot as { queries: unknown }).queries = slot.area.queries(slot.state);
    }
    this.areas = installed;
    this.bigintFields = fields;
    const timed = installed.filter((slot) => slot.area.onCommandTime !== undefined);
    const hooks = timed.map((slot) => slot.area.onCommandTime as TimeHook);
    this.timeHook0 = hooks[0] ?? null;
    this.timeHookState0 = timed[0]?.state;
    this.timeHook1 = hooks[1] ?? null;
    this.timeHookState1 = timed[1]?.state;
    this.moreTimeHooks = hooks.slice(2);
    this.moreTimeHookStates = timed.slice(2).map((slot) => slot.state);
    this.priceHooks = installed.filter((slot) => slot.area.onPrice !== undefined);
    const ending = installed.filter((slot) => slot.area.onCommandEnd !== undefined);
    this.endHooks = ending.map((slot) => slot.area.onCommandEnd as TimeHook);
    this.endHookStates = ending.map((slot) => slot.state);
    for (const { area, state } of installed) {
      const forEachHold = area.forEachHold;
      if (forEachHold !== undefined) this.ledger.holds.addSource((visit) => forEachHold(state, visit));
    }
    this.ledger.reservedFundsRules = installed
      .filter((slot) => slot.area.reservedFunds !== undefined)
      .map((slot) => (account) => slot.area.reservedFunds?.(slot.state, account) ?? 0n);
  }

  /** The command handler for a type, or undefined (also for names like `toString`). */
  handler(type: unknown): Handler | undefined {
    return typeof type === 'string' ? this.handlers.get(type) : undefined;
  }

  /**
   * The refusal code when the command's freeze rule stops it for a frozen user, or 0. Called only while some
   * user is frozen, before the handler runs.
   */
  freezeRefusal(handler: Handler, command: unknown): number {
    const rule = handler.freeze;
    if (rule === undefined || rule === NOT_FROZEN) return 0;
    const user = rule.user(command as never, handler.state);
    if (typeof user !== 'number') return 0;
    const frozen = this.freezes.mask(user);
    if (frozen === 0) return 0;
    const kinds = rule.kinds;
    const stops =
      typeof kinds === 'function'
        ? freezeMask(
            (kinds as (state: unknown, command: unknown) => readonly FreezeKind[])(handler.state, command),
          )
        : (handler.freezeStops ?? 0);
    return UserFreezeBook.refusal(frozen, stops);
  }

  /** The installed area owning holds of that owner name (Area.name or one of Area.holdOwners). */
  holdOwner(name: string): Installed | undefined {
    return this.byHoldOwner.get(name);
  }

  /** The installed area by name. */
  installed(name: string): Installed | undefined {
    return this.byName.get(name);
  }

  // CommandContext

  /**
   * The event list of the envelope being applied; the ledger appends its balance events to the same list.
   * The ledger keeps it and the kernel reads it from there: handing each envelope's new list over is then
   * one store into a long-lived object, not two (each such store of a young object into an old one runs the
   * write barrier's slow path). Only the kernel sets the ledger's list, so it is always an EngineEvent[].
   */
  get events(): EngineEvent[] {
    return this.ledger.events as EngineEvent[];
  }

  set events(events: EngineEvent[]) {
    this.ledger.events = events;
  }

  emit(event: EngineEvent): void {
    if (this.ledger.recordEvents) (this.ledger.events as EngineEvent[]).push(event);
  }

  reply(value: unknown): void {
    this.replyValue = value;
  }

  port<Q>(target: Port<Q>): Q {
    return this.ports.read(target);
  }

  read<A extends AnyArea>(area: A): QueriesOf<A> {
    const slot = this.byArea.get(area);
    invariant(slot !== undefined, `area ${area.name} is not installed`);
    return slot.queries as QueriesOf<A>;
  }

  priceRecorded(price: PriceUpdate): void {
    const hooks = this.priceHooks;
    for (let index = 0; index < hooks.length; index += 1) {
      const slot = hooks[index] as Installed;
      slot.area.onPrice?.(this, slot.state, price);
    }
  }

  /**
   * The time hooks, run when an envelope's time advances and before its command: first the ledger voids the
   * holds whose expiry the new time reached (each: `holdExpired` event, then the owning area's
   * `holdExpired`), then every area's `onCommandTime`.
   */
  commandTimeAdvanced(): void {
    const expired = this.ledger.expiredHolds(this.timeMs);
    for (let index = 0; index < expired.length; index += 1) this.expire(expired[index] as Hold);
    // In the order of the areas' list.
    if (this.timeHook0 !== null) this.timeHook0(this, this.timeHookState0);
    if (this.timeHook1 !== null) this.timeHook1(this, this.timeHookState1);
    const hooks = this.moreTimeHooks;
    for (let index = 0; index < hooks.length; index += 1)
      (hooks[index] as TimeHook)(this, this.moreTimeHookStates[index]);
  }

  /** The areas' `onCommandEnd` hooks, after an accepted command's handler, in the order of the areas' list. */
  commandEnded(): void {
    const hooks = this.endHooks;
    for (let index = 0; index < hooks.length; index += 1)
      (hooks[index] as TimeHook)(this, this.endHookStates[index]);
  }

  private expire(hold: Hold): void {
    const amount = hold.amount;
    const { account } = hold;
    this.emit({
      type: 'holdExpired',
      area: hold.area,
      ref: hold.ref,
      owner: account.owner,
      wallet: account.wallet,
      currencyId: account.currencyId,
      amount,
    });
    this.ledger.release(hold, amount, LedgerReasonCode.holdExpired);
    const slot = this.byHoldOwner.get(hold.area);
    slot?.area.holdExpired?.(this, slot.state, hold, amount);
  }

  checkInvariants(): void {
    this.ledger.checkInvariants();
    for (const slot of this.areas) slot.area.checkInvariants?.(slot.state, this.ledger);
    this.ledger.holds.forEach((hold) => {
      if (!this.byHoldOwner.has(hold.area))
        fail(`hold ${hold.area}/${hold.ref} belongs to no installed area`);
    });
    invariant(this.idempotency.size <= this.options.idempotencyMaxKeys, 'too many idempotency keys');
  }

  stats(): Record<string, number> {
    const stats: Record<string, number> = {};
    for (const slot of this.areas) Object.assign(stats, slot.area.stats?.(slot.state));
    stats.idempotencyKeys = this.idempotency.size;
    return stats;
  }
}

export { Hold };
