// The lever area's rules, walked over its whole state (tests run them after every command).
import { leverContractValue, leverFee, leverMargin } from '../calc/lever.ts';
import { invariant } from '../invariant.ts';
import type { Ledger } from '../ledger/ledger.ts';
import {
  bookAtOrBelowThreshold,
  bookLiquidationTicks,
  LEVER_FEE_HOLDS,
  LEVER_MARGIN_HOLDS,
} from './handlers.ts';
import { bookKey } from './state.ts';
import type { LeverRecord, LeverState } from './state.ts';

function checkHold(
  ledger: Ledger,
  record: LeverRecord,
  owner: string,
  amount: bigint,
  held: LeverRecord['marginHold'],
): void {
  const id = record.positionId;
  if (amount === 0n) {
    invariant(held === null, `lever ${id}: a ${owner} hold for nothing`);
    return;
  }
  invariant(
    held !== null && held.open && ledger.holds.has(held),
    `lever ${id}: its ${owner} hold is not open`,
  );
  invariant(held.area === owner && held.ref === id, `lever ${id}: hold named ${held.area}/${held.ref}`);
  invariant(held.amount === amount, `lever ${id}: ${owner} hold ${held.amount}, record ${amount}`);
  invariant(
    held.account.ownerKey === record.userId &&
      held.account.currencyId === record.quoteCurrencyId &&
      held.account.walletIndex === 1,
    `lever ${id}: ${owner} hold on the wrong account`,
  );
}

/**
 * Holds exactly match records (each entry holds its margin and fee, each holding its current margin, and
 * no other lever hold exists); books and exposure agree with the records; no book is at or below its
 * threshold at the current marks; no entry or stop trigger is crossed by its pair's mark; every book that
 * nothing marked dirty has its liquidation triggers at the calc price or earlier, never later.
 */
export function checkLeverInvariants(state: LeverState, ledger: Ledger): void {
  let marginHolds = 0;
  let feeHolds = 0;
  const lots = new Map<number, { long: number; short: number }>();
  for (const record of state.records.values()) {
    const id = record.positionId;
    invariant(id < state.ids.value, `lever ${id} from the future`);
    const pair = state.pairs.get(record.marketId);
    invariant(pair !== undefined, `lever ${id} on an unconfigured pair`);
    invariant(record.lots === record.share * record.rules.lotsPerShare, `lever ${id} lots`);
    const contractValue = leverContractValue({
      priceTicks: record.entryTicks,
      lots: record.lots,
      quoteMinorPerTickLot: record.quoteMinorPerTickLot,
    });
    invariant(record.contractValue === contractValue, `lever ${id} contract value`);
    invariant(
      record.originMargin === leverMargin({ contractValue, multiple: record.multiple }),
      `lever ${id} margin`,
    );
    invariant(
      record.fee === leverFee({ amount: contractValue, ratePpm: record.rules.feePpm }),
      `lever ${id} fee`,
    );
    invariant(record.margin >= 0n && record.margin <= record.originMargin, `lever ${id} margin left`);
    checkHold(ledger, record, LEVER_MARGIN_HOLDS, record.margin, record.marginHold);
    if (record.margin > 0n) marginHolds += 1;
    const mark = state.markOf(record.marketId);
    if (record.status === 0) {
      invariant(record.margin === record.originMargin, `lever entry ${id} margin`);
      checkHold(ledger, record, LEVER_FEE_HOLDS, record.fee, record.feeHold);
      if (record.fee > 0n) feeHolds += 1;
      const trigger = record.entryTrigger;
      invariant(trigger !== null && trigger.live, `lever entry ${id} has no live trigger`);
      invariant(
        mark === undefined || !(trigger.below ? mark <= trigger.priceTicks : mark >= trigger.priceTicks),
        `lever entry ${id}: the mark ${mark} crossed its trigger ${trigger.priceTicks}`,
      );
    } else {
      invariant(record.feeHold === null, `lever ${id}: a holding keeps a fee hold`);
      invariant(mark !== undefined, `lever ${id}: a holding without a mark`);
      for (const [ticks, trigger] of [
        [record.takeProfitTicks, record.takeProfitTrigger],
        [record.stopLossTicks, record.stopLossTrigger],
      ] as const) {
        invariant(ticks > 0 === (trigger !== null && trigger.live), `lever ${id}: stop trigger`);
        if (trigger !== null)
          invariant(
            !(trigger.below ? mark <= trigger.priceTicks : mark >= trigger.priceTicks),
            `lever ${id}: the mark ${mark} crossed its stop ${trigger.priceTicks}`,
          );
      }
    }
    const side = lots.get(record.marketId) ?? { long: 0, short: 0 };
    if (record.side === 1) side.long += record.lots;
    else side.short += record.lots;
    lots.set(record.marketId, side);
    const book = state.books.get(bookKey(record.userId, record.quoteCurrencyId));
    invariant(book !== undefined, `lever ${id} in no book`);
    invariant(
      (record.status === 0 ? book.entries : book.holdings).get(id) === record,
      `lever ${id} not in its book`,
    );
  }
  invariant(
    ledger.holds.countOf(LEVER_MARGIN_HOLDS) === marginHolds,
    'lever margin holds do not match records',
  );
  invariant(ledger.holds.countOf(LEVER_FEE_HOLDS) === feeHolds, 'lever fee holds do not match entries');
  for (const pair of state.pairs.values()) {
    const side = lots.get(pair.marketId) ?? { long: 0, short: 0 };
    invariant(
      pair.longLots === side.long && pair.shortLots === side.short,
      `lever pair ${pair.marketId} exposure`,
    );
  }
  let records = 0;
  for (const book of state.books.values()) {
    records += book.entries.size + book.holdings.size;
    invariant(book.entries.size + book.holdings.size > 0, `lever book ${book.key} is empty`);
    let originMargin = 0n;
    let margin = 0n;
    let thresholdBp = 0;
    const nets = new Map<number, { net: number; value: bigint }>();
    for (const record of book.holdings.values()) {
      originMargin += record.originMargin;
      margin += record.margin;
      thresholdBp = Math.max(thresholdBp, record.rules.liquidationThresholdBp);
      const net = nets.get(record.marketId) ?? { net: 0, value: 0n };
      const sign = record.side === 1 ? 1 : -1;
      net.net += sign * record.lots;
      net.value +=
        BigInt(sign) * BigInt(record.entryTicks) * BigInt(record.lots) * record.quoteMinorPerTickLot;
      nets.set(record.marketId, net);
    }
    invariant(book.originMargin === originMargin && book.margin === margin, `lever book ${book.key} margins`);
    invariant(book.thresholdBp === thresholdBp, `lever book ${book.key} threshold`);
    invariant(book.markets.size === nets.size, `lever book ${book.key} pairs`);
    for (const [marketId, net] of nets) {
      const market = book.markets.get(marketId);
      invariant(
        market !== undefined && market.netLots === net.net && market.signedEntryValue === net.value,
        `lever book ${book.key} pair ${marketId}`,
      );
      if (state.dirty.has(book)) continue;
      const ticks = bookLiquidationTicks(state, book, marketId);
      const trigger = market.liquidationTrigger;
      if (ticks === null)
        invariant(trigger === null || !trigger.live, `lever book ${book.key}: a trigger without a net`);
      else
        // Exact, or earlier than exact (a deposit into the lever wallet moved the true price away; the
        // trigger then fires, finds the book above its threshold and re-indexes it): never later.
        invariant(
          trigger !== null &&
            trigger.live &&
            trigger.below === market.netLots > 0 &&
            (trigger.below ? trigger.priceTicks >= ticks : trigger.priceTicks <= ticks),
          `lever book ${book.key} pair ${marketId}: liquidation trigger ${trigger?.priceTicks} beyond ${ticks}`,
        );
    }
    invariant(!bookAtOrBelowThreshold(state, book), `lever book ${book.key} is at or below its threshold`);
  }
  invariant(records === state.records.size, 'lever records and books disagree');
  let pairHolders = 0;
  let currencyHolders = 0;
  for (const book of state.books.values()) {
    for (const marketId of book.markets.keys())
      invariant(
        state.pairHolders.get(marketId)?.has(book) === true,
        `lever book ${book.key}: not a holder of ${marketId}`,
      );
    pairHolders += book.markets.size;
    if (book.holdings.size === 0) continue;
    invariant(
      state.currencyHolders.get(book.currencyId)?.has(book) === true,
      `lever book ${book.key}: not a holder`,
    );
    currencyHolders += 1;
  }
  let indexed = 0;
  for (const set of state.pairHolders.values()) indexed += set.size;
  invariant(indexed === pairHolders, 'lever pair holders and books disagree');
  indexed = 0;
  for (const set of state.currencyHolders.values()) indexed += set.size;
  invariant(indexed === currencyHolders, 'lever currency holders and books disagree');
}
