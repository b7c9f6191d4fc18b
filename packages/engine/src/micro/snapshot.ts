// The micro area's snapshot section. Written only when the area holds anything (see MicroState.isEmpty), so
// the snapshot text and state hash of an engine that never used seconds contracts stay what they were.
import type { MicroPriceKind, MicroSample } from './rules.ts';
import type { MicroOrder, MicroState } from './state.ts';
import { capKey } from './state.ts';
import type { MicroDirection } from './rules.ts';
import { MAX_CURRENCY_ID } from '../limits.ts';
import { FEES_OWNER_KEY, HOUSE_OWNER_KEY } from '../ledger/accounts.ts';
import { Hold } from '../ledger/holds.ts';
import type { Ledger } from '../ledger/ledger.ts';
import { MicroReasonCode } from './codes.ts';
import { MICRO_FEE_HOLDS, MICRO_RESERVE_HOLDS, MICRO_STAKE_HOLDS, MICRO_WALLET_INDEX } from './handlers.ts';

/**
 * A sample as an order keeps it. The index is written only for an order that settles on it (rule v2), and an
 * order row ends with 'index' only then, so that the rows (and the state hash) of orders that settle on the
 * mark are exactly those written before the index rule existed.
 */
type SampleRow =
  | [seq: number, timeMs: number, markTicks: number | null, stale: 0 | 1, hash: string]
  | [
      seq: number,
      timeMs: number,
      markTicks: number | null,
      stale: 0 | 1,
      hash: string,
      indexTicks: number | null,
    ];

type OrderRow = [
  orderId: number,
  userId: number,
  marketId: number,
  currencyId: number,
  direction: MicroDirection,
  seconds: number,
  profitRatioBp: number,
  stake: string,
  fee: string,
  profit: string,
  acceptedMs: number,
  expiryMs: number,
  maxSampleAgeMs: number,
  open: SampleRow | null,
  settleOn?: 'index',
];

export type MicroSnapshotSection = {
  maxSampleAgeMs: number;
  nextOrderId: number;
  seconds: [seconds: number, profitRatioBp: number][];
  currencies: [
    currencyId: number,
    feeBp: number,
    minStake: string,
    maxStake: string,
    presets: string[],
    maxOpenOrders: number,
  ][];
  caps: [marketId: number, currencyId: number, exposureCap: string][];
  orders: OrderRow[];
};

function sampleRow(sample: MicroSample, price: MicroPriceKind): SampleRow {
  const row: SampleRow = [sample.seq, sample.timeMs, sample.markTicks, sample.stale ? 1 : 0, sample.hash];
  return price === 'index' ? [...row, sample.indexTicks] : row;
}

function orderRow(o: MicroOrder): OrderRow {
  const row: OrderRow = [
    o.orderId,
    o.userId,
    o.marketId,
    o.currencyId,
    o.direction,
    o.seconds,
    o.profitRatioBp,
    o.stake.toString(),
    o.fee.toString(),
    o.profit.toString(),
    o.acceptedMs,
    o.expiryMs,
    o.maxSampleAgeMs,
    o.open === null ? null : sampleRow(o.open, o.settleOn),
  ];
  if (o.settleOn === 'index') row.push('index');
  return row;
}

/** The section, or undefined when the area is empty. Collections in ascending key order. */
export function writeMicroSection(micro: MicroState): MicroSnapshotSection | undefined {
  if (micro.isEmpty()) return undefined;
  return {
    maxSampleAgeMs: micro.maxSampleAgeMs,
    nextOrderId: micro.nextOrderId,
    seconds: [...micro.seconds].sort(([a], [b]) => a - b),
    currencies: [...micro.currencies.values()]
      .sort((a, b) => a.currencyId - b.currencyId)
      .map((c) => [
        c.currencyId,
        c.feeBp,
        c.minStake.toString(),
        c.maxStake.toString(),
        c.presets.map(String),
        c.maxOpenOrders,
      ]),
    caps: [...micro.caps]
      .sort(([a], [b]) => a - b)
      .map(([key, cap]) => [
        Math.floor(key / (MAX_CURRENCY_ID + 1)),
        key % (MAX_CURRENCY_ID + 1),
        cap.toString(),
      ]),
    orders: [...micro.orders.values()].sort((a, b) => a.orderId - b.orderId).map(orderRow),
  };
}

/**
 * Fills an empty MicroState from a section (a missing section leaves it empty) and re-creates each running
 * order's holds (stake, fee, reserve) from its amounts; the ledger's invariant then proves the locked sums.
 */
export function readMicroSection(
  micro: MicroState,
  section: MicroSnapshotSection | undefined,
  ledger: Ledger,
): void {
  if (section === undefined) return;
  micro.maxSampleAgeMs = section.maxSampleAgeMs;
  micro.nextOrderId = section.nextOrderId;
  for (const [seconds, ratio] of section.seconds) micro.seconds.set(seconds, ratio);
  for (const [currencyId, feeBp, minStake, maxStake, presets, maxOpenOrders] of section.currencies) {
    micro.currencies.set(currencyId, {
      currencyId,
      feeBp,
      minStake: BigInt(minStake),
      maxStake: BigInt(maxStake),
      presets: presets.map((preset) => BigInt(preset)),
      maxOpenOrders,
    });
  }
  for (const [marketId, currencyId, cap] of section.caps)
    micro.caps.set(capKey(marketId, currencyId), BigInt(cap));
  for (const row of section.orders) {
    const [orderId, userId, marketId, currencyId, direction, seconds, profitRatioBp, stake, fee, profit] =
      row;
    const [, , , , , , , , , , acceptedMs, expiryMs, maxSampleAgeMs, open, settleOn] = row;
    const restore = (owner: string, ownerKey: number, amount: bigint, reason: number): Hold | null => {
      if (amount === 0n) return null;
      const account = ledger.account(ownerKey, MICRO_WALLET_INDEX, currencyId);
      const hold = new Hold(owner, orderId, account, amount, reason);
      ledger.restoreHold(hold);
      return hold;
    };
    const stakeHold = restore(MICRO_STAKE_HOLDS, userId, BigInt(stake), MicroReasonCode.microStakeHold);
    if (stakeHold === null) throw new Error(`micro order ${orderId} without a stake`);
    micro.addOrder({
      stakeHold,
      feeHold: restore(MICRO_FEE_HOLDS, FEES_OWNER_KEY, BigInt(fee), MicroReasonCode.microFeeHold),
      reserveHold: restore(
        MICRO_RESERVE_HOLDS,
        HOUSE_OWNER_KEY,
        BigInt(profit),
        MicroReasonCode.microReserveHold,
      ),
      orderId,
      userId,
      marketId,
      currencyId,
      direction,
      seconds,
      profitRatioBp,
      stake: BigInt(stake),
      fee: BigInt(fee),
      profit: BigInt(profit),
      acceptedMs,
      expiryMs,
      maxSampleAgeMs,
      settleOn: settleOn === 'index' ? 'index' : 'mark',
      open:
        open === null
          ? null
          : {
              seq: open[0],
              timeMs: open[1],
              markTicks: open[2],
              indexTicks: open[5] ?? null,
              stale: open[3] === 1,
              hash: open[4],
            },
    });
  }
}
