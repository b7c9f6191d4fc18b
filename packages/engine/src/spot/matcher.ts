import { fail } from '../invariant.ts';
import type { CommandContext } from '../kernel/context.ts';
import { feeOf } from '../pairs/amounts.ts';
import { cancelResting } from './cancel-order.ts';
import type { MatchHandler } from './order-book.ts';
import { orderDoneEvent, unregisterOrder } from './owner-orders.ts';
import { SpotReasonCode as ReasonCode } from './reason-codes.ts';
import type { SpotState } from './state.ts';
import type { Market } from './market.ts';
import type { Order } from './types.ts';

/**
 * Settles each fill the book reports. One fill is a set of linked transfers on two ledgers (TigerBeetle
 * style): the buyer's quote hold is posted to the seller, the seller's base hold is posted to the buyer,
 * a buy taker filled below its limit gets the difference released, and each side pays its fee out of what
 * it received. The taker's quote and fee totals for the reply are the order's own (`quoteFilled`, `feePaid`):
 * a taker has filled nothing before it matches, so the matcher keeps no copy of them (each would be one more
 * bigint sum per fill, stored into this long-lived object through the write barrier's slow path).
 */
export class SpotMatcher implements MatchHandler {
  private readonly state: SpotState;
  private ctx: CommandContext | null = null;
  private market: Market | null = null;
  tradeCount = 0;
  /** The price of the latest fill since `begin` (0 before the first): the market's last trade price. */
  lastPriceTicks = 0;

  constructor(state: SpotState) {
    this.state = state;
  }

  begin(ctx: CommandContext, market: Market): void {
    this.ctx = ctx;
    this.market = market;
    this.tradeCount = 0;
    this.lastPriceTicks = 0;
  }

  selfTrade(maker: Order): void {
    cancelResting(this.ctx as CommandContext, this.state, maker, 'selfTrade', false);
  }

  fill(maker: Order, lots: number, taker: Order): void {
    const market = this.market as Market;
    const state = this.state;
    const ledger = state.ledger;
    const priceTicks = maker.priceTicks;
    const quoteAmount = market.quoteAmount(priceTicks, lots);
    const baseAmount = BigInt(lots) * market.lotBaseMinor;
    const takerIsBuy = taker.side === 'buy';
    const buyer = takerIsBuy ? taker : maker;
    const seller = takerIsBuy ? maker : taker;
    const buyerFee = feeOf(baseAmount, takerIsBuy ? market.takerFeePpmBig : market.makerFeePpmBig);
    const sellerFee = feeOf(quoteAmount, takerIsBuy ? market.makerFeePpmBig : market.takerFeePpmBig);
    const tradeId = state.tradeIds.next();
    taker.remainingLots -= lots;
    if (ledger.recordEvents)
      (this.ctx as CommandContext).emit({
        type: 'trade',
        tradeId,
        marketId: market.marketId,
        priceTicks,
        quantityLots: lots,
        baseAmount,
        quoteAmount,
        makerOrderId: maker.orderId,
        makerOwner: maker.owner,
        takerOrderId: taker.orderId,
        takerOwner: taker.owner,
        makerSide: maker.side,
        makerFee: takerIsBuy ? sellerFee : buyerFee,
        makerFeeCurrencyId: takerIsBuy ? market.quoteCurrencyId : market.baseCurrencyId,
        takerFee: takerIsBuy ? buyerFee : sellerFee,
        takerFeeCurrencyId: takerIsBuy ? market.baseCurrencyId : market.quoteCurrencyId,
      });
    ledger.post(buyer, seller.receiveAccount, quoteAmount, ReasonCode.tradeSettlement, tradeId);
    ledger.post(seller, buyer.receiveAccount, baseAmount, ReasonCode.tradeSettlement, tradeId);
    if (takerIsBuy && taker.kind === 'limit' && taker.priceTicks > priceTicks) {
      const surplus = market.quoteAmount(taker.priceTicks - priceTicks, lots);
      ledger.release(taker, surplus, ReasonCode.orderPriceImprovement);
    }
    if (sellerFee > 0n)
      ledger.transfer(
        seller.receiveAccount,
        market.feesQuoteAccount,
        sellerFee,
        ReasonCode.tradeFee,
        tradeId,
      );
    if (buyerFee > 0n)
      ledger.transfer(buyer.receiveAccount, market.feesBaseAccount, buyerFee, ReasonCode.tradeFee, tradeId);
    const takerFee = takerIsBuy ? buyerFee : sellerFee;
    const timeMs = (this.ctx as CommandContext).timeMs;
    taker.quoteFilled += quoteAmount;
    taker.feePaid += takerFee;
    taker.updatedTimeMs = timeMs;
    maker.quoteFilled += quoteAmount;
    maker.feePaid += takerIsBuy ? sellerFee : buyerFee;
    maker.updatedTimeMs = timeMs;
    this.tradeCount += 1;
    this.lastPriceTicks = priceTicks;
    if (maker.remainingLots === 0) this.makerDone(maker);
  }

  private makerDone(maker: Order): void {
    if (maker.lockedAmount !== 0n) fail(`filled order ${maker.orderId} still holds ${maker.lockedAmount}`);
    unregisterOrder(this.state, maker);
    if (this.state.ledger.recordEvents) (this.ctx as CommandContext).emit(orderDoneEvent(maker, 0n));
  }
}
