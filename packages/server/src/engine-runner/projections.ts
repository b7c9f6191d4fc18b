// Projections: rows derived from the engine's events, written in the same transaction as the journal batch
// that produced them, so a committed command's order, trades and account-log entries are visible the moment
// its caller is answered. Everything here can be rebuilt from the journal (rebuildProjections).
//
// Rows go in with one statement per table per batch (INSERT ... SELECT FROM unnest of one array per column):
// one parse and one round trip whatever the batch size, on PGlite and PostgreSQL alike.
import { SYSTEM_OWNERS } from '@fairex/engine';
import type { AccountOwner, Command, EngineEvent, PriceSampledEvent } from '@fairex/engine';
import type { Queryable, StoreTransaction } from '../store/index.ts';

/** What the projector writes through: a store transaction, or a bare connection (unnest only). */
type ProjectionTransaction = Queryable & Pick<Partial<StoreTransaction>, 'copyFrom'>;
import type { Projector } from './runner.ts';
import { writeMicroRows } from '../micro/projection.ts';
import type { CommittedEntry } from './types.ts';

type Entry = CommittedEntry<Command, EngineEvent>;
type OrderStatus = 'accepted' | 'resting' | 'filled' | 'cancelled';

/** A user id as itself; system owners as negative keys (house -1 ... outside -5), as the engine numbers them. */
export function ownerKey(owner: AccountOwner): number {
  if (typeof owner === 'number') return owner;
  const index = SYSTEM_OWNERS.indexOf(owner);
  if (index < 0) throw new RangeError(`unknown owner ${String(owner)}`);
  return -(index + 1);
}

/** An order as it stands at the end of a batch; for orders accepted before the batch, the batch's changes. */
interface OrderChange {
  orderId: number;
  /** Accepted in this batch: the full row is inserted. Otherwise the amounts below are added to the row. */
  isNew: boolean;
  ownerKey: number;
  marketId: number;
  side: 'buy' | 'sell';
  kind: 'limit' | 'market';
  priceTicks: number;
  quantityLots: number;
  holdAmount: bigint;
  clientOrderId: string | null;
  createdSeq: number;
  createdTimeMs: number;
  filledLots: number;
  baseFilled: bigint;
  quoteFilled: bigint;
  feePaid: bigint;
  releasedAmount: bigint;
  /** null: unchanged by this batch. */
  status: OrderStatus | null;
  cancelReason: string | null;
  updatedSeq: number;
  updatedTimeMs: number;
}

/** Column arrays ready for unnest; amounts as decimal text so both drivers pass them exactly. */
export interface ProjectionRows {
  accountLog: {
    seq: number[];
    eventIndex: number[];
    transferId: number[];
    ownerKey: number[];
    wallet: string[];
    currencyId: number[];
    availableBefore: string[];
    availableAfter: string[];
    lockedBefore: string[];
    lockedAfter: string[];
    reason: number[];
    referenceId: number[];
    memo: (string | null)[];
    timeMs: number[];
  };
  trades: {
    tradeId: number[];
    marketId: number[];
    priceTicks: number[];
    quantityLots: number[];
    baseAmount: string[];
    quoteAmount: string[];
    makerOrderId: number[];
    makerOwnerKey: number[];
    takerOrderId: number[];
    takerOwnerKey: number[];
    makerSide: string[];
    makerFee: string[];
    makerFeeCurrencyId: number[];
    takerFee: string[];
    takerFeeCurrencyId: number[];
    seq: number[];
    timeMs: number[];
  };
  orders: OrderChange[];
  /** Price samples in chain order; those with `head` are also published heads. */
  priceSamples: PriceSampledEvent[];
}

/** Derives every projection row of a batch from its outcomes. Pure: the same entries give the same rows. */
export function projectEntries(entries: readonly Entry[]): ProjectionRows {
  const rows: ProjectionRows = {
    accountLog: {
      seq: [],
      eventIndex: [],
      transferId: [],
      ownerKey: [],
      wallet: [],
      currencyId: [],
      availableBefore: [],
      availableAfter: [],
      lockedBefore: [],
      lockedAfter: [],
      reason: [],
      referenceId: [],
      memo: [],
      timeMs: [],
    },
    trades: {
      tradeId: [],
      marketId: [],
      priceTicks: [],
      quantityLots: [],
      baseAmount: [],
      quoteAmount: [],
      makerOrderId: [],
      makerOwnerKey: [],
      takerOrderId: [],
      takerOwnerKey: [],
      makerSide: [],
      makerFee: [],
      makerFeeCurrencyId: [],
      takerFee: [],
      takerFeeCurrencyId: [],
      seq: [],
      timeMs: [],
    },
    orders: [],
    priceSamples: [],
  };
  const orders = new Map<number, OrderChange>();
  for (const { envelope, outcome } of entries) {
    const events = outcome.events;
    for (let eventIndex = 0; eventIndex < events.length; eventIndex++) {
      projectEvent(
        rows,
        orders,
        events[eventIndex] as EngineEvent,
        envelope.seq,
        envelope.timeMs,
        eventIndex,
      );
    }
  }
  rows.orders = [...orders.values()];
  return rows;
}

function projectEvent(
  rows: ProjectionRows,
  orders: Map<number, OrderChange>,
  event: EngineEvent,
  seq: number,
  timeMs: number,
  eventIndex: number,
): void {
  switch (event.type) {
    case 'balanceChanged': {
      const log = rows.accountLog;
      log.seq.push(seq);
      log.eventIndex.push(eventIndex);
      log.transferId.push(event.transferId);
      log.ownerKey.push(ownerKey(event.owner));
      log.wallet.push(event.wallet);
      log.currencyId.push(event.currencyId);
      log.availableBefore.push(event.availableBefore.toString());
      log.availableAfter.push(event.availableAfter.toString());
      log.lockedBefore.push(event.lockedBefore.toString());
      log.lockedAfter.push(event.lockedAfter.toString());
      log.reason.push(event.reason);
      log.referenceId.push(event.referenceId);
      log.memo.push(event.memo ?? null);
      log.timeMs.push(timeMs);
      return;
    }
    case 'orderAccepted':
      orders.set(event.orderId, {
        orderId: event.orderId,
        isNew: true,
        ownerKey: ownerKey(event.owner),
        marketId: event.marketId,
        side: event.side,
        kind: event.kind,
        priceTicks: event.priceTicks,
        quantityLots: event.quantityLots,
        holdAmount: event.holdAmount,
        clientOrderId: event.clientOrderId ?? null,
        createdSeq: seq,
        createdTimeMs: timeMs,
        filledLots: 0,
        baseFilled: 0n,
        quoteFilled: 0n,
        feePaid: 0n,
        releasedAmount: 0n,
        status: 'accepted',
        cancelReason: null,
        updatedSeq: seq,
        updatedTimeMs: timeMs,
      });
      return;
    case 'orderRested':
      touch(orders, event.orderId, seq, timeMs).status = 'resting';
      return;
    case 'orderDone': {
      const order = touch(orders, event.orderId, seq, timeMs);
      order.status = 'filled';
      order.releasedAmount += event.releasedAmount;
      return;
    }
    case 'orderCancelled': {
      const order = touch(orders, event.orderId, seq, timeMs);
      order.status = 'cancelled';
      order.cancelReason = event.reason;
      order.releasedAmount += event.releasedAmount;
      return;
    }
    case 'trade':
      projectTrade(rows, orders, event, seq, timeMs);
      return;
    case 'priceSampled':
      rows.priceSamples.push(event);
      return;
    default:
      // Configuration and withdrawal events have no projection here; their balance effects are logged above.
      return;
  }
}

function projectTrade(
  rows: ProjectionRows,
  orders: Map<number, OrderChange>,
  event: Extract<EngineEvent, { type: 'trade' }>,
  seq: number,
  timeMs: number,
): void {
  const trades = rows.trades;
  trades.tradeId.push(event.tradeId);
  trades.marketId.push(event.marketId);
  trades.priceTicks.push(event.priceTicks);
  trades.quantityLots.push(event.quantityLots);
  trades.baseAmount.push(event.baseAmount.toString());
  trades.quoteAmount.push(event.quoteAmount.toString());
  trades.makerOrderId.push(event.makerOrderId);
  trades.makerOwnerKey.push(ownerKey(event.makerOwner));
  trades.takerOrderId.push(event.takerOrderId);
  trades.takerOwnerKey.push(ownerKey(event.takerOwner));
  trades.makerSide.push(event.makerSide);
  trades.makerFee.push(event.makerFee.toString());
  trades.makerFeeCurrencyId.push(event.makerFeeCurrencyId);
  trades.takerFee.push(event.takerFee.toString());
  trades.takerFeeCurrencyId.push(event.takerFeeCurrencyId);
  trades.seq.push(seq);
  trades.timeMs.push(timeMs);
  fill(touch(orders, event.makerOrderId, seq, timeMs), event.quantityLots, event, event.makerFee);
  fill(touch(orders, event.takerOrderId, seq, timeMs), event.quantityLots, event, event.takerFee);
}

function fill(
  order: OrderChange,
  lots: number,
  event: { baseAmount: bigint; quoteAmount: bigint },
  fee: bigint,
) {
  order.filledLots += lots;
  order.baseFilled += event.baseAmount;
  order.quoteFilled += event.quoteAmount;
  order.feePaid += fee;
}

/** The batch's change record of an order, created empty for an order accepted in an earlier batch. */
function touch(orders: Map<number, OrderChange>, orderId: number, seq: number, timeMs: number): OrderChange {
  let order = orders.get(orderId);
  if (order === undefined) {
    order = {
      orderId,
      isNew: false,
      ownerKey: 0,
      marketId: 0,
      side: 'buy',
      kind: 'limit',
      priceTicks: 0,
      quantityLots: 0,
      holdAmount: 0n,
      clientOrderId: null,
      createdSeq: 0,
      createdTimeMs: 0,
      filledLots: 0,
      baseFilled: 0n,
      quoteFilled: 0n,
      feePaid: 0n,
      releasedAmount: 0n,
      status: null,
      cancelReason: null,
      updatedSeq: seq,
      updatedTimeMs: timeMs,
    };
    orders.set(orderId, order);
  }
  order.updatedSeq = seq;
  order.updatedTimeMs = timeMs;
  return order;
}

/** One table's new rows as one array per column, in `columns` order; `types` are the columns' SQL types. */
export interface TableRows {
  table: string;
  columns: readonly string[];
  types: readonly string[];
  data: unknown[][];
}

const ACCOUNT_LOG_COLUMNS = {
  table: 'account_log',
  columns: [
    'seq',
    'event_index',
    'transfer_id',
    'owner_key',
    'wallet',
    'currency_id',
    'available_before',
    'available_after',
    'locked_before',
    'locked_after',
    'reason',
    'reference_id',
    'memo',
    'time_ms',
  ],
  types: [
    'bigint',
    'int',
    'bigint',
    'int',
    'text',
    'int',
    'numeric',
    'numeric',
    'numeric',
    'numeric',
    'smallint',
    'bigint',
    'text',
    'bigint',
  ],
} as const;

const TRADE_COLUMNS = {
  table: 'spot_trades',
  columns: [
    'trade_id',
    'market_id',
    'price_ticks',
    'quantity_lots',
    'base_amount',
    'quote_amount',
    'maker_order_id',
    'maker_owner_key',
    'taker_order_id',
    'taker_owner_key',
    'maker_side',
    'maker_fee',
    'maker_fee_currency_id',
    'taker_fee',
    'taker_fee_currency_id',
    'seq',
    'time_ms',
  ],
  types: [
    'bigint',
    'int',
    'bigint',
    'bigint',
    'numeric',
    'numeric',
    'bigint',
    'int',
    'bigint',
    'int',
    'text',
    'numeric',
    'int',
    'numeric',
    'int',
    'bigint',
    'bigint',
  ],
} as const;

const ORDER_COLUMNS = {
  table: 'spot_orders',
  columns: [
    'order_id',
    'owner_key',
    'market_id',
    'side',
    'kind',
    'price_ticks',
    'quantity_lots',
    'filled_lots',
    'hold_amount',
    'base_filled',
    'quote_filled',
    'fee_paid',
    'released_amount',
    'status',
    'cancel_reason',
    'client_order_id',
    'created_seq',
    'created_time_ms',
    'updated_seq',
    'updated_time_ms',
  ],
  types: [
    'bigint',
    'int',
    'int',
    'text',
    'text',
    'bigint',
    'bigint',
    'bigint',
    'numeric',
    'numeric',
    'numeric',
    'numeric',
    'numeric',
    'text',
    'text',
    'text',
    'bigint',
    'bigint',
    'bigint',
    'bigint',
  ],
} as const;

const PRICE_SAMPLE_COLUMNS = {
  table: 'price_samples',
  columns: [
    'market_id',
    'seq',
    'time_ms',
    'source_time_ms',
    'index_ticks',
    'mark_ticks',
    'sources',
    'stale',
    'prev_hash',
    'hash',
  ],
  types: ['integer', 'bigint', 'bigint', 'bigint', 'bigint', 'bigint', 'text', 'boolean', 'text', 'text'],
} as const;

const PRICE_HEAD_COLUMNS = {
  table: 'price_heads',
  columns: ['market_id', 'seq', 'time_ms', 'hash'],
  types: ['integer', 'bigint', 'bigint', 'text'],
} as const;

const UPDATE_ORDERS = `update spot_orders as o set
    filled_lots = o.filled_lots + d.filled_lots,
    base_filled = o.base_filled + d.base_filled,
    quote_filled = o.quote_filled + d.quote_filled,
    fee_paid = o.fee_paid + d.fee_paid,
    released_amount = o.released_amount + d.released_amount,
    status = coalesce(d.status, o.status),
    cancel_reason = coalesce(d.cancel_reason, o.cancel_reason),
    updated_seq = d.updated_seq,
    updated_time_ms = d.updated_time_ms
  from unnest($1::bigint[], $2::bigint[], $3::numeric[], $4::numeric[], $5::numeric[], $6::numeric[],
    $7::text[], $8::text[], $9::bigint[], $10::bigint[])
    as d(order_id, filled_lots, base_filled, quote_filled, fee_paid, released_amount, status, cancel_reason,
      updated_seq, updated_time_ms)
  where o.order_id = d.order_id`;

/**
 * How rows reach a table. PostgreSQL takes an INSERT ... SELECT FROM unnest of one array per column: one
 * statement, one round trip. PGlite runs COPY from an in-memory blob, which on the WebAssembly build is about
 * twice as fast as unnest because each value goes straight through its type's input function.
 */
export type BulkMode = 'unnest' | 'pgliteCopy';

/** Writes a batch's projection rows. Throws when an order the events name has no row: a projection bug. */
export async function writeProjectionRows(
  tx: ProjectionTransaction,
  rows: ProjectionRows,
  mode: BulkMode = 'unnest',
): Promise<void> {
  const log = rows.accountLog;
  await insertRows(tx, mode, {
    ...ACCOUNT_LOG_COLUMNS,
    data: [
      log.seq,
      log.eventIndex,
      log.transferId,
      log.ownerKey,
      log.wallet,
      log.currencyId,
      log.availableBefore,
      log.availableAfter,
      log.lockedBefore,
      log.lockedAfter,
      log.reason,
      log.referenceId,
      log.memo,
      log.timeMs,
    ],
  });
  const trades = rows.trades;
  await insertRows(tx, mode, {
    ...TRADE_COLUMNS,
    data: [
      trades.tradeId,
      trades.marketId,
      trades.priceTicks,
      trades.quantityLots,
      trades.baseAmount,
      trades.quoteAmount,
      trades.makerOrderId,
      trades.makerOwnerKey,
      trades.takerOrderId,
      trades.takerOwnerKey,
      trades.makerSide,
      trades.makerFee,
      trades.makerFeeCurrencyId,
      trades.takerFee,
      trades.takerFeeCurrencyId,
      trades.seq,
      trades.timeMs,
    ],
  });
  await insertRows(tx, mode, {
    ...ORDER_COLUMNS,
    data: orderInsertColumns(rows.orders.filter((o) => o.isNew)),
  });
  const samples = rows.priceSamples;
  await insertRows(tx, mode, {
    ...PRICE_SAMPLE_COLUMNS,
    data: [
      samples.map((sample) => sample.marketId),
      samples.map((sample) => sample.seq),
      samples.map((sample) => sample.timeMs),
      samples.map((sample) => sample.sourceTimeMs),
      samples.map((sample) => sample.indexTicks),
      samples.map((sample) => sample.markTicks),
      samples.map((sample) => JSON.stringify(sample.sources)),
      samples.map((sample) => sample.stale),
      samples.map((sample) => sample.prevHash),
      samples.map((sample) => sample.hash),
    ],
  });
  const heads = samples.filter((sample) => sample.head);
  await insertRows(tx, mode, {
    ...PRICE_HEAD_COLUMNS,
    data: [
      heads.map((head) => head.marketId),
      heads.map((head) => head.seq),
      heads.map((head) => head.timeMs),
      heads.map((head) => head.hash),
    ],
  });
  const changed = rows.orders.filter((order) => !order.isNew);
  if (changed.length > 0) {
    const result = await tx.query(UPDATE_ORDERS, orderUpdateColumns(changed));
    if (result.rowCount !== changed.length) {
      throw new Error(`${changed.length - result.rowCount} orders named by events have no spot_orders row`);
    }
  }
}

export async function insertRows(tx: ProjectionTransaction, mode: BulkMode, rows: TableRows): Promise<void> {
  const count = rows.data[0]?.length ?? 0;
  if (count === 0) return;
  if (mode === 'pgliteCopy' && tx.copyFrom) {
    await tx.copyFrom(rows.table, rows.columns, copyText(rows.data, count));
    return;
  }
  const selects = rows.types.map((type, index) => `$${index + 1}::${type}[]`).join(', ');
  await tx.query(
    `insert into ${rows.table} (${rows.columns.join(', ')}) select * from unnest(${selects})`,
    rows.data,
  );
}

/** COPY text format: tab-separated, newline-terminated, \N for null, backslash escapes in text. */
function copyText(columns: unknown[][], count: number): string {
  const lines = new Array<string>(count);
  for (let row = 0; row < count; row++) {
    let line = copyValue((columns[0] as unknown[])[row]);
    for (let column = 1; column < columns.length; column++) {
      line += '\t' + copyValue((columns[column] as unknown[])[row]);
    }
    lines[row] = line;
  }
  return lines.join('\n') + '\n';
}

const COPY_SPECIAL = /[\\\t\n\r]/g;
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

function copyValue(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value !== 'string') return String(value);
  return value.replace(COPY_SPECIAL, (character) => COPY_ESCAPES[character] as string);
}

function orderInsertColumns(orders: OrderChange[]): unknown[][] {
  return [
    orders.map((order) => order.orderId),
    orders.map((order) => order.ownerKey),
    orders.map((order) => order.marketId),
    orders.map((order) => order.side),
    orders.map((order) => order.kind),
    orders.map((order) => order.priceTicks),
    orders.map((order) => order.quantityLots),
    orders.map((order) => order.filledLots),
    orders.map((order) => order.holdAmount.toString()),
    orders.map((order) => order.baseFilled.toString()),
    orders.map((order) => order.quoteFilled.toString()),
    orders.map((order) => order.feePaid.toString()),
    orders.map((order) => order.releasedAmount.toString()),
    orders.map((order) => order.status),
    orders.map((order) => order.cancelReason),
    orders.map((order) => order.clientOrderId),
    orders.map((order) => order.createdSeq),
    orders.map((order) => order.createdTimeMs),
    orders.map((order) => order.updatedSeq),
    orders.map((order) => order.updatedTimeMs),
  ];
}

function orderUpdateColumns(orders: OrderChange[]): unknown[][] {
  return [
    orders.map((order) => order.orderId),
    orders.map((order) => order.filledLots),
    orders.map((order) => order.baseFilled.toString()),
    orders.map((order) => order.quoteFilled.toString()),
    orders.map((order) => order.feePaid.toString()),
    orders.map((order) => order.releasedAmount.toString()),
    orders.map((order) => order.status),
    orders.map((order) => order.cancelReason),
    orders.map((order) => order.updatedSeq),
    orders.map((order) => order.updatedTimeMs),
  ];
}

/** The runner's projector for a store of the given kind: spot orders, spot trades and the account log. */
export function spotProjector(kind: 'pglite' | 'postgres' | undefined): Projector<Command, EngineEvent> {
  const mode: BulkMode = kind === 'pglite' ? 'pgliteCopy' : 'unnest';
  return {
    write: async (tx, entries) => {
      await writeProjectionRows(tx, projectEntries(entries), mode);
      await writeMicroRows(tx, entries, mode);
    },
  };
}

/** The projection tables, in the order a rebuild empties them. */
export const PROJECTION_TABLES = [
  'account_log',
  'spot_trades',
  'spot_orders',
  'price_samples',
  'price_heads',
  'micro_orders',
  'micro_results',
] as const;
