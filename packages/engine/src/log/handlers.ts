// The log area's commands and hooks: starting the log, one leaf of price samples per command, and the
// liabilities snapshot (capture, then publish of its sum tree's root and totals).
import type { CommandContext, PriceUpdate } from '../kernel/context.ts';
import { OUTSIDE_OWNER_KEY } from '../ledger/accounts.ts';
import type { Currency } from '../ledger/ledger.ts';
import { LOG_LEVER, LOG_PAIRS } from './expected.ts';
import { ResultCode } from '../result-codes.ts';
import { isCount, isNatural } from '../validate.ts';
import { appendEntry, checkpointIfDue } from './append.ts';
import { LogResultCode } from './codes.ts';
import type { CaptureLiabilitiesCommand, PublishLiabilitiesCommand, StartLogCommand } from './commands.ts';
import { compareText, liabilitiesEntry, pricesEntry } from './entries.ts';
import type { BatchSample } from './entries.ts';
import type { LiabilitiesIdentity } from './events.ts';
import type { LogState } from './state.ts';

/** C2SP signed-note key names (the origin is one): no spaces, no "+"; printable ASCII here. */
const ORIGIN = /^[\x21-\x2a\x2c-\x7e]{1,200}$/;
const SNAPSHOT_ID = /^[A-Za-z0-9._-]{1,64}$/;
const ROOT = /^[0-9a-f]{64}$/;
export const MAX_CHECKPOINT_INTERVAL_MS = 86_400_000;

export function startLog(ctx: CommandContext, state: LogState, command: StartLogCommand): number {
  const { origin, checkpointIntervalMs } = command;
  if (typeof origin !== 'string' || !ORIGIN.test(origin)) return LogResultCode.logInvalidOrigin;
  if (!isCount(checkpointIntervalMs, MAX_CHECKPOINT_INTERVAL_MS)) return ResultCode.invalidField;
  if (state.started && origin !== state.origin) return LogResultCode.logOriginFixed;
  state.started = true;
  state.origin = origin;
  state.intervalMs = checkpointIntervalMs;
  ctx.reply({ origin, size: state.size });
  return ResultCode.ok;
}

function symbolOf(ctx: CommandContext, state: LogState, marketId: number): string {
  let symbol = state.symbols.get(marketId);
  if (symbol === undefined) {
    const market = ctx.port(LOG_PAIRS).market(marketId);
    if (market === undefined) throw new Error(`price sample of unknown market ${marketId}`);
    const base = ctx.ledger.currencies.get(market.baseCurrencyId) as Currency;
    const quote = ctx.ledger.currencies.get(market.quoteCurrencyId) as Currency;
    symbol = `${base.code}/${quote.code}`;
    state.symbols.set(marketId, symbol);
  }
  return symbol;
}

/** Gathers every sample a `recordPriceSamples` command records (its leaf is appended at the command's end). */
export function onPrice(ctx: CommandContext, state: LogState, price: PriceUpdate): void {
  if (!state.started || !price.sample) return;
  state.batch.push([symbolOf(ctx, state, price.marketId), price.seq, price.hash as string]);
}

const bySymbol = (a: BatchSample, b: BatchSample): number => compareText(a[0], b[0]);

/** After each command: the samples it recorded become one leaf. */
export function onCommandEnd(ctx: CommandContext, state: LogState): void {
  const batch = state.batch;
  if (batch.length === 0) return;
  state.batch = [];
  if (batch.length > 1) batch.sort(bySymbol);
  appendEntry(ctx, state, 'prices', pricesEntry(ctx.timeMs, batch));
  checkpointIfDue(ctx, state, false);
}

/** One currency's columns: the balance and, for a currency that settles leverage, the P&L pair. */
type CurrencyColumns = { currency: Currency; balance: number; upnl: number };

/** The capture's columns: ascending by currency code, then balance, upnl+, upnl-. */
function columnsOf(ctx: CommandContext): { columns: string[]; byCurrency: Map<number, CurrencyColumns> } {
  const leverCurrencies = new Set(
    ctx
      .port(LOG_LEVER)
      .pairs()
      .map((pair) => pair.quoteCurrencyId),
  );
  const currencies = [...ctx.ledger.currencies.values()].sort((a, b) => compareText(a.code, b.code));
  const columns: string[] = [];
  const byCurrency = new Map<number, CurrencyColumns>();
  for (const currency of currencies) {
    const balance = columns.length;
    columns.push(currency.code);
    let upnl = -1;
    if (leverCurrencies.has(currency.currencyId)) {
      upnl = columns.length;
      columns.push(`${currency.code}:upnl+`, `${currency.code}:upnl-`);
    }
    byCurrency.set(currency.currencyId, { currency, balance, upnl });
  }
  return { columns, byCurrency };
}

export function captureLiabilities(
  ctx: CommandContext,
  state: LogState,
  command: CaptureLiabilitiesCommand,
): number {
  const { snapshotId } = command;
  if (typeof snapshotId !== 'string' || !SNAPSHOT_ID.test(snapshotId))
    return LogResultCode.logInvalidSnapshotId;
  if (!state.started) return LogResultCode.logNotStarted;
  const { columns, byCurrency } = columnsOf(ctx);
  const width = columns.length;
  const rows = new Map<number, bigint[]>();
  const rowOf = (userId: number): bigint[] => {
    let row = rows.get(userId);
    if (row === undefined) rows.set(userId, (row = new Array<bigint>(width).fill(0n)));
    return row;
  };
  const sums = new Map<number, { users: bigint; exchange: bigint; outside: bigint }>();
  for (const currencyId of byCurrency.keys()) sums.set(currencyId, { users: 0n, exchange: 0n, outside: 0n });
  // Balances: available plus locked (every hold, a leveraged position's margin included) over all wallets.
  for (const account of ctx.ledger.accounts.values()) {
    const balance = account.available + account.locked;
    const sum = sums.get(account.currencyId);
    const columnsOfCurrency = byCurrency.get(account.currencyId);
    if (sum === undefined || columnsOfCurrency === undefined)
      throw new Error(`account ${account.key} in an unknown currency`);
    if (account.ownerKey > 0) {
      sum.users += balance;
      if (balance !== 0n) {
        const row = rowOf(account.ownerKey);
        row[columnsOfCurrency.balance] = (row[columnsOfCurrency.balance] as bigint) + balance;
      }
    } else if (account.ownerKey === OUTSIDE_OWNER_KEY) sum.outside += balance;
    else sum.exchange += balance;
  }
  // Unrealised profit and loss of each open leveraged position at the pair's latest recorded mark.
  const lever = ctx.port(LOG_LEVER);
  for (const { currency, upnl } of byCurrency.values()) {
    if (upnl < 0) continue;
    for (const userId of lever.holdersIn(currency.currencyId)) {
      for (const position of lever.positions(userId, 1)) {
        if (position.quoteCurrencyId !== currency.currencyId || position.profit === 0n) continue;
        const row = rowOf(userId);
        const at = position.profit > 0n ? upnl : upnl + 1;
        const amount = position.profit > 0n ? position.profit : -position.profit;
        row[at] = (row[at] as bigint) + amount;
      }
    }
  }
  const users: [number, bigint[]][] = [];
  const totals = new Array<bigint>(width).fill(0n);
  for (const userId of [...rows.keys()].sort((a, b) => a - b)) {
    const row = rows.get(userId) as bigint[];
    if (row.every((amount) => amount === 0n)) continue;
    for (let column = 0; column < width; column += 1)
      totals[column] = (totals[column] as bigint) + (row[column] as bigint);
    users.push([userId, row]);
  }
  const identity: LiabilitiesIdentity[] = [];
  for (const [currencyId, { currency, balance }] of byCurrency) {
    const sum = sums.get(currencyId) as { users: bigint; exchange: bigint; outside: bigint };
    if (sum.users !== totals[balance]) throw new Error(`liabilities of ${currency.code} do not add up`);
    identity.push({ currency: currency.code, ...sum });
  }
  state.pending = {
    snapshotId,
    seq: ctx.seq,
    timeMs: ctx.timeMs,
    leaves: users.length,
    columns,
    totals,
    identity,
  };
  ctx.emit({
    type: 'liabilitiesCaptured',
    snapshotId,
    seq: ctx.seq,
    timeMs: ctx.timeMs,
    columns,
    users,
    totals,
    identity,
  });
  ctx.reply({ snapshotId, seq: ctx.seq, leaves: users.length, columns, totals });
  return ResultCode.ok;
}

function sameColumns(a: unknown, b: readonly string[]): boolean {
  return Array.isArray(a) && a.length === b.length && a.every((column, index) => column === b[index]);
}

function sameTotals(a: unknown, b: readonly bigint[]): boolean {
  return (
    Array.isArray(a) &&
    a.length === b.length &&
    a.every((total, index) => typeof total === 'bigint' && total === b[index])
  );
}

export function publishLiabilities(
  ctx: CommandContext,
  state: LogState,
  command: PublishLiabilitiesCommand,
): number {
  const { snapshotId, root, leafCount, columns, totals } = command;
  if (typeof snapshotId !== 'string' || !SNAPSHOT_ID.test(snapshotId))
    return LogResultCode.logInvalidSnapshotId;
  if (typeof root !== 'string' || !ROOT.test(root)) return LogResultCode.logInvalidRoot;
  if (!isNatural(leafCount, Number.MAX_SAFE_INTEGER)) return ResultCode.invalidField;
  if (!state.started) return LogResultCode.logNotStarted;
  const pending = state.pending;
  if (pending === null || pending.snapshotId !== snapshotId) return LogResultCode.logCaptureNotPending;
  if (
    leafCount !== pending.leaves ||
    !sameColumns(columns, pending.columns) ||
    !sameTotals(totals, pending.totals)
  )
    return LogResultCode.logTotalsMismatch;
  const entry = liabilitiesEntry({
    snapshotId,
    seq: pending.seq,
    timeMs: pending.timeMs,
    leafCount,
    root,
    columns: pending.columns,
    totals: pending.totals,
    identity: pending.identity,
  });
  const index = appendEntry(ctx, state, 'liabilities', entry);
  checkpointIfDue(ctx, state, true);
  state.pending = null;
  ctx.emit({ type: 'liabilitiesPublished', snapshotId, index, root, leafCount });
  ctx.reply({ snapshotId, index, size: state.size });
  return ResultCode.ok;
}
