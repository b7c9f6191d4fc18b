// The lever area's snapshot section, written only when the area holds anything (a configured pair or a
// live record), so the snapshot text and state hash of an engine that never used leverage stay as they
// were. Records re-create their holds on restore; books, exposure and triggers are derived from them.
import { Hold } from '../ledger/holds.ts';
import type { Ledger } from '../ledger/ledger.ts';
import { LeverReasonCode } from './codes.ts';
import type { LeverSide } from './commands.ts';
import { LEVER_FEE_HOLDS, LEVER_MARGIN_HOLDS, armStops, indexBook, leverAccount } from './handlers.ts';
import { armEntryTrigger } from './triggers.ts';
import type { LeverPair, LeverRecord, LeverState } from './state.ts';

type PairRow = [
  marketId: number,
  enabled: 0 | 1,
  lotsPerShare: number,
  multiples: number[],
  minShare: number,
  maxShare: number,
  spreadPpm: number,
  feePpm: number,
  overnightPpm: number,
  liquidationThresholdBp: number,
  liquidationFeePpm: number,
  exposureLimitLots: number,
];

type RulesRow = [
  lotsPerShare: number,
  spreadPpm: number,
  feePpm: number,
  overnightPpm: number,
  liquidationThresholdBp: number,
  liquidationFeePpm: number,
];

type RecordRow = [
  positionId: number,
  userId: number,
  marketId: number,
  status: 0 | 1,
  side: LeverSide,
  share: number,
  lots: number,
  multiple: number,
  entryTicks: number,
  contractValue: string,
  originMargin: string,
  margin: string,
  fee: string,
  overnightPaid: string,
  takeProfitTicks: number,
  stopLossTicks: number,
  placedMs: number,
  openedMs: number,
  lastChargedDay: number,
  rules: RulesRow,
];

export type LeverSnapshotSection = { pairs: PairRow[]; records: RecordRow[] };

export function writeLeverSection(state: LeverState): LeverSnapshotSection | undefined {
  if (state.isEmpty()) return undefined;
  return {
    pairs: [...state.pairs.values()]
      .sort((a, b) => a.marketId - b.marketId)
      .map((p) => [
        p.marketId,
        p.enabled ? 1 : 0,
        p.lotsPerShare,
        [...p.multiples],
        p.minShare,
        p.maxShare,
        p.spreadPpm,
        p.feePpm,
        p.overnightPpm,
        p.liquidationThresholdBp,
        p.liquidationFeePpm,
        p.exposureLimitLots,
      ]),
    records: [...state.records.values()]
      .sort((a, b) => a.positionId - b.positionId)
      .map((r) => [
        r.positionId,
        r.userId,
        r.marketId,
        r.status,
        r.side,
        r.share,
        r.lots,
        r.multiple,
        r.entryTicks,
        r.contractValue.toString(),
        r.originMargin.toString(),
        r.margin.toString(),
        r.fee.toString(),
        r.overnightPaid.toString(),
        r.takeProfitTicks,
        r.stopLossTicks,
        r.placedMs,
        r.openedMs,
        r.lastChargedDay,
        [
          r.rules.lotsPerShare,
          r.rules.spreadPpm,
          r.rules.feePpm,
          r.rules.overnightPpm,
          r.rules.liquidationThresholdBp,
          r.rules.liquidationFeePpm,
        ],
      ]),
  };
}

/**
 * Fills an empty LeverState from its section: pairs (with the market's quote currency and tick-lot value
 * from the spot area), records with their holds re-created, then every book indexed at the current marks.
 */
export function readLeverSection(
  state: LeverState,
  section: LeverSnapshotSection | undefined,
  ledger: Ledger,
  marketOf: (marketId: number) => { quoteCurrencyId: number; quoteMinorPerTickLot: bigint } | undefined,
): void {
  if (section === undefined) return;
  for (const row of section.pairs) {
    const [marketId, enabled, lotsPerShare, multiples, minShare, maxShare, spreadPpm, feePpm] = row;
    const [, , , , , , , , overnightPpm, liquidationThresholdBp, liquidationFeePpm, exposureLimitLots] = row;
    const market = marketOf(marketId);
    if (market === undefined) throw new Error(`lever pair ${marketId} has no market`);
    const pair: LeverPair = {
      marketId,
      quoteCurrencyId: market.quoteCurrencyId,
      quoteMinorPerTickLot: market.quoteMinorPerTickLot,
      enabled: enabled === 1,
      lotsPerShare,
      multiples: [...multiples],
      minShare,
      maxShare,
      spreadPpm,
      feePpm,
      overnightPpm,
      liquidationThresholdBp,
      liquidationFeePpm,
      exposureLimitLots,
      longLots: 0,
      shortLots: 0,
    };
    state.pairs.set(marketId, pair);
  }
  for (const row of section.records) {
    const [positionId, userId, marketId, status, side, share, lots, multiple, entryTicks] = row;
    const [, , , , , , , , , contractValue, originMargin, margin, fee, overnightPaid] = row;
    const [, , , , , , , , , , , , , , takeProfitTicks, stopLossTicks, placedMs, openedMs, lastChargedDay] =
      row;
    const rules = row[19];
    const pair = state.pairs.get(marketId);
    if (pair === undefined) throw new Error(`lever record ${positionId} on an unconfigured pair`);
    const account = leverAccount(ledger, userId, pair.quoteCurrencyId);
    const restore = (owner: string, amount: bigint, reason: number): Hold | null => {
      if (amount === 0n) return null;
      const hold = new Hold(owner, positionId, account, amount, reason);
      ledger.restoreHold(hold);
      return hold;
    };
    const record: LeverRecord = {
      positionId,
      userId,
      marketId,
      quoteCurrencyId: pair.quoteCurrencyId,
      quoteMinorPerTickLot: pair.quoteMinorPerTickLot,
      status,
      side,
      share,
      lots,
      multiple,
      entryTicks,
      contractValue: BigInt(contractValue),
      originMargin: BigInt(originMargin),
      margin: BigInt(margin),
      fee: BigInt(fee),
      overnightPaid: BigInt(overnightPaid),
      takeProfitTicks,
      stopLossTicks,
      placedMs,
      openedMs,
      lastChargedDay,
      rules: {
        lotsPerShare: rules[0],
        spreadPpm: rules[1],
        feePpm: rules[2],
        overnightPpm: rules[3],
        liquidationThresholdBp: rules[4],
        liquidationFeePpm: rules[5],
      },
      marginHold: restore(LEVER_MARGIN_HOLDS, BigInt(margin), LeverReasonCode.leverMarginHold),
      feeHold: status === 0 ? restore(LEVER_FEE_HOLDS, BigInt(fee), LeverReasonCode.leverEntryFeeHold) : null,
      entryTrigger: null,
      takeProfitTrigger: null,
      stopLossTrigger: null,
    };
    state.addRecord(record);
    if (status === 0) armEntryTrigger(state, record);
    else armStops(state, record);
  }
  for (const book of [...state.books.values()].sort((a, b) => a.key - b.key)) indexBook(state, book);
}
