// A minimal example area, in the tests only (not shipped): escrow boxes. A user puts an amount of the change
// wallet in a box for a while (a ledger hold with an expiry); the box is either released to another user
// before it expires or returned to its owner when it does. It also keeps a per-user reserve (funds that may
// not leave the change wallet: a reserved-funds rule) and the last price of every market (the price hook).
// It shows every part of the area interface with the least code; docs/adding-an-area.md walks through it.
import { Hold, ResultCode, command, defineArea, invariant } from '../../src/index.ts';
import type { AreaSetup, CommandContext, Counter, EngineEvent, Ledger } from '../../src/index.ts';
import { CHANGE_WALLET_INDEX, ownerKeyOf } from '../../src/ledger/accounts.ts';
import { isAmount, isCount } from '../../src/validate.ts';

// Commands (a product area adds its union to src/commands.ts).
export type OpenBoxCommand = {
  type: 'openBox';
  userId: number;
  currencyId: number;
  boxAmount: bigint;
  /** How long the box stays open, in command time. */
  forMs: number;
};
export type ReleaseBoxCommand = { type: 'releaseBox'; userId: number; boxId: number; toUserId: number };
export type SetReserveCommand = {
  type: 'setReserve';
  userId: number;
  currencyId: number;
  reserveAmount: bigint;
};
export type EscrowCommand = OpenBoxCommand | ReleaseBoxCommand | SetReserveCommand;

// Events (a product area adds its union to src/events.ts).
export type EscrowEvent =
  | {
      type: 'boxOpened';
      boxId: number;
      userId: number;
      currencyId: number;
      boxAmount: bigint;
      expiresAtMs: number;
    }
  | { type: 'boxReleased'; boxId: number; toUserId: number; boxAmount: bigint }
  | { type: 'boxExpired'; boxId: number; userId: number; boxAmount: bigint };

// Result codes: a range of its own (a product area takes its own block, e.g. 1100s, 2100s, 3100s).
export const EscrowResultCode = { boxNotFound: 3900, notBoxOwner: 3901 } as const;
// Reason codes: its own hundreds.
export const EscrowReasonCode = { boxHold: 900, boxRelease: 901 } as const;

/** The boxes bring their own reason codes; the hold's reason is the one that opened it. */
type Box = { boxId: number; userId: number; currencyId: number; hold: Hold; expiresAtMs: number };

/** The area's state slice. */
export class EscrowState {
  readonly ledger: Ledger;
  readonly boxIds: Counter;
  readonly boxes = new Map<number, Box>();
  /** Reserved funds by account key. */
  readonly reserves = new Map<number, bigint>();
  /** Last price per market, from the price hook. */
  readonly lastPrices = new Map<number, number>();

  constructor(setup: AreaSetup) {
    this.ledger = setup.ledger;
    this.boxIds = setup.counter('nextBoxId');
  }
}

/** An area outside the product's list has events outside the EngineEvent union, hence the cast. */
function emit(ctx: CommandContext, event: EscrowEvent): void {
  ctx.emit(event as unknown as EngineEvent);
}

function openBox(ctx: CommandContext, state: EscrowState, command: OpenBoxCommand): number {
  const userKey = ownerKeyOf(command.userId);
  if (userKey <= 0) return ResultCode.invalidOwner;
  if (!isCount(command.currencyId, 65_535) || !state.ledger.currencies.has(command.currencyId))
    return ResultCode.currencyNotFound;
  if (!isAmount(command.boxAmount)) return ResultCode.invalidAmount;
  if (!isCount(command.forMs, 86_400_000)) return ResultCode.invalidField;
  const account = state.ledger.findAccount(userKey, CHANGE_WALLET_INDEX, command.currencyId);
  // Validate everything before the first posting: a refusal must change nothing.
  if (account === undefined || account.available - command.boxAmount < state.ledger.reservedFunds(account))
    return ResultCode.insufficientFunds;
  const boxId = state.boxIds.next();
  const expiresAtMs = ctx.timeMs + command.forMs;
  const hold = new Hold('escrow', boxId, account, command.boxAmount, EscrowReasonCode.boxHold, expiresAtMs);
  state.ledger.hold(hold);
  state.boxes.set(boxId, { boxId, userId: userKey, currencyId: command.currencyId, hold, expiresAtMs });
  emit(ctx, {
    type: 'boxOpened',
    boxId,
    userId: userKey,
    currencyId: command.currencyId,
    boxAmount: command.boxAmount,
    expiresAtMs,
  });
  ctx.reply({ boxId, expiresAtMs });
  return ResultCode.ok;
}

function releaseBox(ctx: CommandContext, state: EscrowState, command: ReleaseBoxCommand): number {
  if (!isCount(command.boxId, Number.MAX_SAFE_INTEGER)) return ResultCode.invalidId;
  const toKey = ownerKeyOf(command.toUserId);
  if (toKey <= 0) return ResultCode.invalidOwner;
  const box = state.boxes.get(command.boxId);
  if (box === undefined) return EscrowResultCode.boxNotFound;
  if (box.userId !== command.userId) return EscrowResultCode.notBoxOwner;
  const boxAmount = box.hold.amount;
  const to = state.ledger.account(toKey, CHANGE_WALLET_INDEX, box.currencyId);
  state.ledger.post(box.hold, to, boxAmount, EscrowReasonCode.boxRelease, box.boxId);
  state.boxes.delete(box.boxId);
  emit(ctx, { type: 'boxReleased', boxId: box.boxId, toUserId: toKey, boxAmount });
  ctx.reply({ boxId: box.boxId, boxAmount });
  return ResultCode.ok;
}

function setReserve(ctx: CommandContext, state: EscrowState, command: SetReserveCommand): number {
  const userKey = ownerKeyOf(command.userId);
  if (userKey <= 0) return ResultCode.invalidOwner;
  if (!state.ledger.currencies.has(command.currencyId)) return ResultCode.currencyNotFound;
  if (typeof command.reserveAmount !== 'bigint' || command.reserveAmount < 0n)
    return ResultCode.invalidAmount;
  const account = state.ledger.account(userKey, CHANGE_WALLET_INDEX, command.currencyId);
  if (command.reserveAmount === 0n) state.reserves.delete(account.key);
  else state.reserves.set(account.key, command.reserveAmount);
  ctx.reply({ reserveAmount: command.reserveAmount });
  return ResultCode.ok;
}

export type EscrowQueries = {
  box(
    boxId: number,
  ): { userId: number; currencyId: number; boxAmount: bigint; expiresAtMs: number } | undefined;
  lastPrice(marketId: number): number | undefined;
};

type BoxRow = [boxId: number, userId: number, currencyId: number, expiresAtMs: number];

export const escrowArea = defineArea({
  name: 'escrow',
  commands: {
    openBox: command<EscrowState, OpenBoxCommand>(openBox, (c) => c.userId),
    releaseBox: command<EscrowState, ReleaseBoxCommand>(releaseBox, (c) => c.userId),
    setReserve: command<EscrowState, SetReserveCommand>(setReserve),
  },
  createState: (setup) => new EscrowState(setup),
  queries: (state): EscrowQueries => ({
    box(boxId) {
      const box = state.boxes.get(boxId);
      if (box === undefined) return undefined;
      return {
        userId: box.userId,
        currencyId: box.currencyId,
        boxAmount: box.hold.amount,
        expiresAtMs: box.expiresAtMs,
      };
    },
    lastPrice: (marketId) => state.lastPrices.get(marketId),
  }),
  // One section under the area's name, and only when there is something in it.
  writeSnapshot: (state) => {
    if (state.boxes.size === 0 && state.reserves.size === 0 && state.lastPrices.size === 0) return {};
    return {
      escrow: {
        boxes: [...state.boxes.values()]
          .sort((a, b) => a.boxId - b.boxId)
          .map((box): BoxRow => [box.boxId, box.userId, box.currencyId, box.expiresAtMs]),
        reserves: [...state.reserves]
          .sort(([a], [b]) => a - b)
          .map(([key, amount]) => [key, amount.toString()]),
        lastPrices: [...state.lastPrices].sort(([a], [b]) => a - b),
      },
    };
  },
  // The boxes' holds come from the snapshot's `holds` section (this area does not rebuild them).
  readSnapshot: (state, document) => {
    const section = document.escrow as
      { boxes: BoxRow[]; reserves: [number, string][]; lastPrices: [number, number][] } | undefined;
    if (section === undefined) return;
    const holds = state.ledger.holdsOf('escrow');
    for (const [boxId, userId, currencyId, expiresAtMs] of section.boxes) {
      const hold = holds.get(boxId);
      invariant(hold !== undefined, `escrow box ${boxId} has no hold`);
      state.boxes.set(boxId, { boxId, userId, currencyId, hold, expiresAtMs });
    }
    for (const [key, amount] of section.reserves) state.reserves.set(key, BigInt(amount));
    for (const [marketId, priceTicks] of section.lastPrices) state.lastPrices.set(marketId, priceTicks);
  },
  checkInvariants: (state, ledger) => {
    const holds = ledger.holdsOf('escrow');
    invariant(holds.size === state.boxes.size, 'escrow holds and boxes disagree');
    for (const box of state.boxes.values()) {
      invariant(holds.get(box.boxId) === box.hold, `escrow box ${box.boxId} does not own its hold`);
      invariant(box.hold.expiresAtMs === box.expiresAtMs, `escrow box ${box.boxId} expiry`);
    }
  },
  reservedFunds: (state, account) => state.reserves.get(account.key) ?? 0n,
  bigintFields: ['boxAmount', 'reserveAmount'],
  resultCodes: EscrowResultCode,
  reasonCodes: EscrowReasonCode,
  // The ledger has voided the hold (event holdExpired and the release); the box goes.
  holdExpired: (ctx, state, hold, amount) => {
    const box = state.boxes.get(hold.ref);
    if (box === undefined) return;
    state.boxes.delete(box.boxId);
    emit(ctx, { type: 'boxExpired', boxId: box.boxId, userId: box.userId, boxAmount: amount });
  },
  onPrice: (_ctx, state, price) => {
    if (price.indexTicks !== null && !price.stale) state.lastPrices.set(price.marketId, price.indexTicks);
  },
  stats: (state) => ({ escrowBoxes: state.boxes.size }),
});
