// Command handlers and the clock of the P2P area (docs/p2p.md). An order's escrow is a hold on the seller's
// change wallet opened in the command that creates the order; it leaves by three exits only: `release`
// (the seller, or an arbiter deciding for the buyer), `returnEscrow` (a cancellation before "paid": the
// buyer, the payment window's end, an acceptor's rejection) and `decideForSeller` (an arbiter).
import {
  p2pAmountForFiat,
  p2pDayOf,
  p2pFee,
  p2pFiatCents,
  p2pFloatingPrice,
  p2pNextDayStart,
} from '../calc/p2p.ts';
import type { CommandContext } from '../kernel/context.ts';
import { CHANGE_WALLET_INDEX, FEES_OWNER_KEY } from '../ledger/accounts.ts';
import type { Account } from '../ledger/accounts.ts';
import { Hold } from '../ledger/holds.ts';
import { MAX_AMOUNT, MAX_CURRENCY_ID, MAX_USER_ID } from '../limits.ts';
import { ResultCode } from '../result-codes.ts';
import { isAmount, isCount, isNatural } from '../validate.ts';
import { P2pReasonCode, P2pResultCode } from './codes.ts';
import type {
  P2pAdTerms,
  P2pConfigureCommand,
  P2pDecideCommand,
  P2pEditAdCommand,
  P2pOrderActionCommand,
  P2pPostAdCommand,
  P2pSetAdStatusCommand,
  P2pSetMerchantCommand,
  P2pSetReferenceCommand,
  P2pTakeAdCommand,
} from './commands.ts';
import { P2P_FIAT_CODES, referenceKey } from './state.ts';
import type { P2pAd, P2pEnd, P2pOrder, P2pState } from './state.ts';

/** Hold owners: an order's escrow (ref the order id) and a sell ad's escrow (ref the ad id). */
export const P2P_ORDER_HOLDS = 'p2p';
export const P2P_AD_HOLDS = 'p2p.ad';
/** Fees at most 10 % a side; appeal wait at most a day; prices at most 10^13 cents per coin. */
export const MAX_P2P_FEE_BP = 1_000;
export const MAX_APPEAL_WAIT_MS = 24 * 60 * 60 * 1000;
export const MAX_P2P_PRICE_CENTS = 10n ** 13n;
export const MAX_FLOAT_BP = 2_000;
export const MAX_P2P_ADS_PER_USER = 50;
/** Open orders a user may have taken at once (a merchant's ads may have any number). */
export const MAX_P2P_TAKEN_ORDERS = 20;
export const MAX_P2P_TERMS = 1_000;
export const MAX_P2P_METHODS = 3;
export const MIN_P2P_WINDOW_MS = 10_000;
export const MAX_P2P_WINDOW_MS = 3_600_000;

function changeAccount(ctx: CommandContext, userId: number, currencyId: number): Account {
  return ctx.ledger.account(userId, CHANGE_WALLET_INDEX, currencyId);
}

function spendable(ctx: CommandContext, userId: number, currencyId: number): bigint {
  const account = ctx.ledger.findAccount(userId, CHANGE_WALLET_INDEX, currencyId);
  if (account === undefined) return 0n;
  return account.available - ctx.ledger.reservedFunds(account);
}

function isUser(value: unknown): value is number {
  return isCount(value, MAX_USER_ID);
}

// ------------------------------------------------------------------------------------------- setup

export function p2pConfigure(ctx: CommandContext, state: P2pState, command: P2pConfigureCommand): number {
  const { makerFeeBp, takerFeeBp, appealWaitMs, cancellationsPerDay } = command;
  if (!isNatural(makerFeeBp, MAX_P2P_FEE_BP) || !isNatural(takerFeeBp, MAX_P2P_FEE_BP))
    return ResultCode.invalidFeeRate;
  if (!isNatural(appealWaitMs, MAX_APPEAL_WAIT_MS) || !isCount(cancellationsPerDay, 100))
    return ResultCode.invalidField;
  state.makerFeeBp = makerFeeBp;
  state.takerFeeBp = takerFeeBp;
  state.appealWaitMs = appealWaitMs;
  state.cancellationsPerDay = cancellationsPerDay;
  ctx.emit({ type: 'p2pConfigured', makerFeeBp, takerFeeBp, appealWaitMs, cancellationsPerDay });
  return ResultCode.ok;
}

export function p2pSetReference(
  ctx: CommandContext,
  state: P2pState,
  command: P2pSetReferenceCommand,
): number {
  const { currencyId, fiat, priceCents } = command;
  if (!isCount(currencyId, MAX_CURRENCY_ID)) return ResultCode.invalidId;
  if (!ctx.ledger.currencies.has(currencyId)) return ResultCode.currencyNotFound;
  if (typeof fiat !== 'string' || !P2P_FIAT_CODES.includes(fiat)) return P2pResultCode.p2pUnknownFiat;
  if (!isAmount(priceCents) || priceCents > MAX_P2P_PRICE_CENTS) return ResultCode.invalidPrice;
  state.references.set(referenceKey(currencyId, fiat), priceCents);
  ctx.emit({ type: 'p2pReferenceSet', currencyId, fiat, priceCents, timeMs: ctx.timeMs });
  return ResultCode.ok;
}

export function p2pSetMerchant(ctx: CommandContext, state: P2pState, command: P2pSetMerchantCommand): number {
  const { userId, approved, acceptor } = command;
  if (!isUser(userId)) return ResultCode.invalidOwner;
  if (typeof approved !== 'boolean' || typeof acceptor !== 'boolean') return ResultCode.invalidField;
  if (approved) state.merchants.set(userId, acceptor);
  else {
    state.merchants.delete(userId);
    for (const ad of state.ads.values())
      if (ad.userId === userId && ad.status === 'online') {
        ad.status = 'paused';
        emitAd(ctx, ad, ad.status);
      }
  }
  ctx.emit({ type: 'p2pMerchantSet', userId, approved, acceptor: approved && acceptor });
  return ResultCode.ok;
}

// --------------------------------------------------------------------------------------------- ads

/**
 * A payment window: whole seconds from 10 s to an hour. The calls offer the listed minutes (P2P_WINDOWS_MS);
 * shorter windows exist for test and demo runs (the server's P2P_WINDOW_SECONDS).
 */
export function isPaymentWindow(windowMs: unknown): windowMs is number {
  return (
    typeof windowMs === 'number' &&
    Number.isSafeInteger(windowMs) &&
    windowMs % 1000 === 0 &&
    windowMs >= MIN_P2P_WINDOW_MS &&
    windowMs <= MAX_P2P_WINDOW_MS
  );
}

function checkTerms(terms: P2pAdTerms): number {
  const { priceCents, floatBp, minFiatCents, maxFiatCents, windowMs, methodIds } = terms;
  if (floatBp === null) {
    if (!isAmount(priceCents) || priceCents > MAX_P2P_PRICE_CENTS) return ResultCode.invalidPrice;
  } else {
    if (typeof floatBp !== 'number' || !Number.isSafeInteger(floatBp) || Math.abs(floatBp) > MAX_FLOAT_BP)
      return ResultCode.invalidPrice;
    if (priceCents !== 0n) return ResultCode.invalidPrice;
  }
  if (!isAmount(minFiatCents) || !isAmount(maxFiatCents) || minFiatCents > maxFiatCents)
    return ResultCode.invalidAmount;
  if (!isPaymentWindow(windowMs)) return P2pResultCode.p2pInvalidWindow;
  const methods: unknown = methodIds;
  if (!Array.isArray(methods) || methods.length === 0 || methods.length > MAX_P2P_METHODS)
    return ResultCode.invalidField;
  for (const method of methods as unknown[]) if (!isUser(method)) return ResultCode.invalidField;
  if (typeof terms.terms !== 'string' || terms.terms.length > MAX_P2P_TERMS) return ResultCode.invalidField;
  return ResultCode.ok;
}

/** The ad's price now: fixed, or its reference moved by its percent; 0n when a floating ad has no reference. */
export function adPriceCents(
  state: P2pState,
  ad: Pick<P2pAd, 'currencyId' | 'fiat' | 'priceCents' | 'floatBp'>,
): bigint {
  if (ad.floatBp === null) return ad.priceCents;
  const reference = state.references.get(referenceKey(ad.currencyId, ad.fiat));
  if (reference === undefined) return 0n;
  return p2pFloatingPrice({ referenceCents: reference, floatBp: ad.floatBp });
}

function emitAd(ctx: CommandContext, ad: P2pAd, status: 'online' | 'paused' | 'closed'): void {
  ctx.emit({
    type: 'p2pAdChanged',
    adId: ad.adId,
    userId: ad.userId,
    side: ad.side,
    currencyId: ad.currencyId,
    fiat: ad.fiat,
    priceCents: ad.priceCents,
    floatBp: ad.floatBp,
    minFiatCents: ad.minFiatCents,
    maxFiatCents: ad.maxFiatCents,
    windowMs: ad.windowMs,
    methodIds: [...ad.methodIds],
    terms: ad.terms,
    total: ad.total,
    remaining: ad.remaining,
    status,
    acceptor: ad.acceptor,
    timeMs: ctx.timeMs,
  });
}

export function p2pPostAd(ctx: CommandContext, state: P2pState, command: P2pPostAdCommand): number {
  const { userId, side, currencyId, fiat, total } = command;
  if (!isUser(userId)) return ResultCode.invalidOwner;
  if (side !== 'buy' && side !== 'sell') return ResultCode.invalidSide;
  if (!isCount(currencyId, MAX_CURRENCY_ID)) return ResultCode.invalidId;
  if (!ctx.ledger.currencies.has(currencyId)) return ResultCode.currencyNotFound;
  if (typeof fiat !== 'string' || !P2P_FIAT_CODES.includes(fiat)) return P2pResultCode.p2pUnknownFiat;
  if (!isAmount(total)) return ResultCode.invalidAmount;
  const terms = checkTerms(command);
  if (terms !== ResultCode.ok) return terms;
  const acceptor = state.merchants.get(userId);
  if (acceptor === undefined) return P2pResultCode.p2pNotMerchant;
  if (command.floatBp !== null && adPriceCents(state, command) === 0n)
    return P2pResultCode.p2pNoReferencePrice;
  let ads = 0;
  for (const ad of state.ads.values()) if (ad.userId === userId) ads += 1;
  if (ads >= MAX_P2P_ADS_PER_USER) return P2pResultCode.p2pTooMany;
  const escrow = side === 'sell' ? total + p2pFee({ amount: total, feeBp: state.makerFeeBp }) : 0n;
  if (escrow > MAX_AMOUNT) return ResultCode.invalidAmount;
  if (side === 'sell' && spendable(ctx, userId, currencyId) < escrow) return P2pResultCode.p2pEscrowShort;

  const adId = state.nextAdId++;
  let hold: Hold | null = null;
  if (side === 'sell') {
    hold = new Hold(
      P2P_AD_HOLDS,
      adId,
      changeAccount(ctx, userId, currencyId),
      escrow,
      P2pReasonCode.p2pAdEscrow,
    );
    ctx.ledger.hold(hold);
  }
  const ad: P2pAd = {
    adId,
    userId,
    side,
    currencyId,
    fiat,
    acceptor,
    priceCents: command.priceCents,
    floatBp: command.floatBp,
    minFiatCents: command.minFiatCents,
    maxFiatCents: command.maxFiatCents,
    windowMs: command.windowMs,
    methodIds: [...command.methodIds],
    terms: command.terms,
    total,
    remaining: total,
    status: 'online',
    hold,
  };
  state.ads.set(adId, ad);
  emitAd(ctx, ad, ad.status);
  ctx.reply({ adId });
  return ResultCode.ok;
}

export function p2pEditAd(ctx: CommandContext, state: P2pState, command: P2pEditAdCommand): number {
  const ad = state.ads.get(command.adId);
  if (ad === undefined) return P2pResultCode.p2pAdNotFound;
  if (ad.userId !== command.userId) return P2pResultCode.p2pNotAdOwner;
  const terms = checkTerms(command);
  if (terms !== ResultCode.ok) return terms;
  if (
    command.floatBp !== null &&
    adPriceCents(state, { ...ad, floatBp: command.floatBp, priceCents: 0n }) === 0n
  )
    return P2pResultCode.p2pNoReferencePrice;
  ad.priceCents = command.priceCents;
  ad.floatBp = command.floatBp;
  ad.minFiatCents = command.minFiatCents;
  ad.maxFiatCents = command.maxFiatCents;
  ad.windowMs = command.windowMs;
  ad.methodIds = [...command.methodIds];
  ad.terms = command.terms;
  emitAd(ctx, ad, ad.status);
  return ResultCode.ok;
}

export function p2pSetAdStatus(ctx: CommandContext, state: P2pState, command: P2pSetAdStatusCommand): number {
  const { userId, status } = command;
  const ad = state.ads.get(command.adId);
  if (ad === undefined) return P2pResultCode.p2pAdNotFound;
  const backOffice = userId === 0;
  if (!backOffice && ad.userId !== userId) return P2pResultCode.p2pNotAdOwner;
  if (status !== 'online' && status !== 'paused' && status !== 'closed') return ResultCode.invalidField;
  if (status === 'online') {
    if (backOffice) return ResultCode.invalidField;
    if (!state.merchants.has(ad.userId)) return P2pResultCode.p2pNotMerchant;
  }
  if (status === 'closed') {
    if (ad.hold !== null) ctx.ledger.release(ad.hold, ad.hold.amount, P2pReasonCode.p2pAdReturn);
    ad.hold = null;
    state.ads.delete(ad.adId);
  } else ad.status = status;
  emitAd(ctx, ad, status);
  return ResultCode.ok;
}

// ------------------------------------------------------------------------------------------ orders

/** Today's cancellations of a user (0 on another day than the counters'). */
export function cancellationsToday(state: P2pState, userId: number, timeMs: number): number {
  if (state.counterDay !== p2pDayOf(timeMs)) return 0;
  return state.cancellations.get(userId) ?? 0;
}

export function isRestricted(state: P2pState, userId: number, timeMs: number): boolean {
  return cancellationsToday(state, userId, timeMs) > state.cancellationsPerDay;
}

export function p2pTakeAd(ctx: CommandContext, state: P2pState, command: P2pTakeAdCommand): number {
  const { userId, amount, methodId } = command;
  if (!isUser(userId)) return ResultCode.invalidOwner;
  if (!isAmount(amount)) return ResultCode.invalidAmount;
  if (!isNatural(methodId, MAX_USER_ID)) return ResultCode.invalidField;
  const ad = state.ads.get(command.adId);
  if (ad === undefined) return P2pResultCode.p2pAdNotFound;
  if (ad.status !== 'online') return P2pResultCode.p2pAdNotOnline;
  if (ad.userId === userId) return P2pResultCode.p2pOwnAd;
  if (isRestricted(state, userId, ctx.timeMs)) return P2pResultCode.p2pRestricted;
  if ((state.openOrdersByUser.get(userId) ?? 0) >= MAX_P2P_TAKEN_ORDERS) return P2pResultCode.p2pTooMany;
  if (amount > ad.remaining) return P2pResultCode.p2pAdExhausted;
  const priceCents = adPriceCents(state, ad);
  if (priceCents === 0n) return P2pResultCode.p2pNoReferencePrice;
  const scale = (ctx.ledger.currencies.get(ad.currencyId) as { scale: number }).scale;
  const fiatCents = p2pFiatCents({ amount, priceCents, scale });
  if (fiatCents < ad.minFiatCents || fiatCents > ad.maxFiatCents) return P2pResultCode.p2pAmountOutOfLimits;

  const sellAd = ad.side === 'sell';
  const buyerId = sellAd ? userId : ad.userId;
  const sellerId = sellAd ? ad.userId : userId;
  const buyerFee = p2pFee({ amount, feeBp: sellAd ? state.takerFeeBp : state.makerFeeBp });
  const sellerFee = p2pFee({ amount, feeBp: sellAd ? state.makerFeeBp : state.takerFeeBp });
  const escrow = amount + sellerFee;
  if (sellAd) {
    // The ad's escrow must keep covering what it has left after this order (fees may have risen since).
    if (ad.hold === null || ad.hold.amount - escrow < ad.remaining - amount)
      return P2pResultCode.p2pAdExhausted;
  } else if (spendable(ctx, sellerId, ad.currencyId) < escrow) return P2pResultCode.p2pEscrowShort;

  const orderId = state.nextOrderId++;
  const account = changeAccount(ctx, sellerId, ad.currencyId);
  if (sellAd) {
    const adHold = ad.hold as Hold;
    ctx.ledger.release(adHold, escrow, P2pReasonCode.p2pAdToOrder);
    if (adHold.amount === 0n) ad.hold = null;
  }
  const hold = new Hold(P2P_ORDER_HOLDS, orderId, account, escrow, P2pReasonCode.p2pOrderEscrow);
  ctx.ledger.hold(hold);
  ad.remaining -= amount;
  const deadlineMs = ctx.timeMs + ad.windowMs;
  const order: P2pOrder = {
    orderId,
    adId: ad.adId,
    buyerId,
    sellerId,
    makerId: ad.userId,
    currencyId: ad.currencyId,
    fiat: ad.fiat,
    priceCents,
    amount,
    fiatCents,
    buyerFee,
    sellerFee,
    methodId,
    acceptor: ad.acceptor,
    createdMs: ctx.timeMs,
    deadlineMs,
    status: 'unpaid',
    paidMs: 0,
    hold,
  };
  state.orders.set(orderId, order);
  state.queueUnpaid(order);
  state.countOpen(userId, 1);
  emitAd(ctx, ad, ad.status);
  ctx.emit({
    type: 'p2pOrderCreated',
    orderId,
    adId: ad.adId,
    buyerId,
    sellerId,
    makerId: ad.userId,
    currencyId: ad.currencyId,
    fiat: ad.fiat,
    priceCents,
    amount,
    fiatCents,
    buyerFee,
    sellerFee,
    methodId,
    acceptor: ad.acceptor,
    createdMs: ctx.timeMs,
    deadlineMs,
  });
  ctx.reply({ orderId, deadlineMs });
  return ResultCode.ok;
}

/** The coins an order of a fiat amount would get at an ad's current price (for the server's conversion). */
export function amountForFiat(state: P2pState, ad: P2pAd, fiatCents: bigint, scale: number): bigint {
  return p2pAmountForFiat({ fiatCents, priceCents: adPriceCents(state, ad), scale });
}

function takerOf(order: P2pOrder): number {
  return order.makerId === order.buyerId ? order.sellerId : order.buyerId;
}

function endOrder(ctx: CommandContext, state: P2pState, order: P2pOrder, end: P2pEnd, by: number): void {
  state.orders.delete(order.orderId);
  state.countOpen(takerOf(order), -1);
  const completed = end === 'released' || end === 'arbiterToBuyer';
  ctx.emit({
    type: 'p2pOrderChanged',
    orderId: order.orderId,
    buyerId: order.buyerId,
    sellerId: order.sellerId,
    status: completed ? 'completed' : 'cancelled',
    end,
    by,
    timeMs: ctx.timeMs,
  });
}

/** Exit 1: the coins less the buyer's fee to the buyer, both fees to the fee account. */
function release(ctx: CommandContext, order: P2pOrder): void {
  const buyer = changeAccount(ctx, order.buyerId, order.currencyId);
  const toBuyer = order.amount - order.buyerFee;
  if (toBuyer > 0n) ctx.ledger.post(order.hold, buyer, toBuyer, P2pReasonCode.p2pRelease, order.orderId);
  const fees = order.buyerFee + order.sellerFee;
  if (fees > 0n) {
    const feeAccount = ctx.ledger.account(FEES_OWNER_KEY, CHANGE_WALLET_INDEX, order.currencyId);
    ctx.ledger.post(order.hold, feeAccount, fees, P2pReasonCode.p2pFee, order.orderId);
  }
}

/** Exit 2: before "paid", the escrow returns: into its sell ad's escrow while the ad is open, else to the seller. */
function returnEscrow(ctx: CommandContext, state: P2pState, order: P2pOrder): void {
  const ad = state.ads.get(order.adId);
  const escrow = order.hold.amount;
  if (ad !== undefined) ad.remaining += order.amount;
  if (ad !== undefined && ad.side === 'sell') {
    ctx.ledger.release(order.hold, escrow, P2pReasonCode.p2pOrderToAd);
    let amount = escrow;
    if (ad.hold !== null) {
      amount += ad.hold.amount;
      ctx.ledger.release(ad.hold, ad.hold.amount, P2pReasonCode.p2pAdMerge);
    }
    ad.hold = new Hold(P2P_AD_HOLDS, ad.adId, order.hold.account, amount, P2pReasonCode.p2pAdEscrow);
    ctx.ledger.hold(ad.hold);
  } else ctx.ledger.release(order.hold, escrow, P2pReasonCode.p2pCancelReturn);
  if (ad !== undefined) emitAd(ctx, ad, ad.status);
}

function countCancellation(ctx: CommandContext, state: P2pState, userId: number): void {
  const day = p2pDayOf(ctx.timeMs);
  if (state.counterDay !== day) {
    state.cancellations.clear();
    state.counterDay = day;
  }
  const count = (state.cancellations.get(userId) ?? 0) + 1;
  state.cancellations.set(userId, count);
  ctx.emit({
    type: 'p2pCancellationCounted',
    userId,
    day,
    count,
    restrictedUntilMs: count > state.cancellationsPerDay ? p2pNextDayStart(ctx.timeMs) : null,
  });
}

function findOrder(state: P2pState, command: { orderId: unknown }): P2pOrder | undefined {
  const orderId = command.orderId;
  return typeof orderId === 'number' ? state.orders.get(orderId) : undefined;
}

export function p2pOrderAction(ctx: CommandContext, state: P2pState, command: P2pOrderActionCommand): number {
  const { userId } = command;
  if (!isUser(userId)) return ResultCode.invalidOwner;
  const order = findOrder(state, command);
  if (order === undefined) return P2pResultCode.p2pOrderNotFound;
  switch (command.type) {
    case 'p2pMarkPaid':
      if (userId !== order.buyerId) return P2pResultCode.p2pNotParty;
      if (order.status !== 'unpaid' || ctx.timeMs >= order.deadlineMs) return P2pResultCode.p2pWrongState;
      order.status = 'paid';
      order.paidMs = ctx.timeMs;
      ctx.emit(orderChanged(ctx, order, 'paid', userId));
      return ResultCode.ok;
    case 'p2pRelease':
      if (userId !== order.sellerId) return P2pResultCode.p2pNotParty;
      release(ctx, order);
      endOrder(ctx, state, order, 'released', userId);
      return ResultCode.ok;
    case 'p2pCancel':
      if (userId !== order.buyerId) return P2pResultCode.p2pNotParty;
      if (order.status !== 'unpaid') return P2pResultCode.p2pWrongState;
      returnEscrow(ctx, state, order);
      endOrder(ctx, state, order, 'buyerCancelled', userId);
      countCancellation(ctx, state, userId);
      return ResultCode.ok;
    case 'p2pReject':
      if (!order.acceptor || userId !== order.makerId) return P2pResultCode.p2pNotParty;
      if (order.status !== 'unpaid') return P2pResultCode.p2pWrongState;
      returnEscrow(ctx, state, order);
      endOrder(ctx, state, order, 'acceptorRejected', userId);
      return ResultCode.ok;
    case 'p2pAppeal':
      if (userId !== order.buyerId && userId !== order.sellerId) return P2pResultCode.p2pNotParty;
      if (order.status !== 'paid') return P2pResultCode.p2pWrongState;
      if (ctx.timeMs < order.paidMs + state.appealWaitMs) return P2pResultCode.p2pAppealTooEarly;
      order.status = 'appealed';
      ctx.emit(orderChanged(ctx, order, 'appealed', userId));
      return ResultCode.ok;
    default:
      return ResultCode.unknownCommand;
  }
}

function orderChanged(ctx: CommandContext, order: P2pOrder, status: 'paid' | 'appealed', by: number) {
  return {
    type: 'p2pOrderChanged' as const,
    orderId: order.orderId,
    buyerId: order.buyerId,
    sellerId: order.sellerId,
    status,
    end: null,
    by,
    timeMs: ctx.timeMs,
  };
}

export function p2pDecide(ctx: CommandContext, state: P2pState, command: P2pDecideCommand): number {
  if (!isUser(command.arbiterId)) return ResultCode.invalidOwner;
  if (command.to !== 'buyer' && command.to !== 'seller') return ResultCode.invalidField;
  const order = findOrder(state, command);
  if (order === undefined) return P2pResultCode.p2pOrderNotFound;
  if (order.status !== 'appealed') return P2pResultCode.p2pWrongState;
  if (command.to === 'buyer') {
    release(ctx, order);
    endOrder(ctx, state, order, 'arbiterToBuyer', command.arbiterId);
  } else {
    // Exit 3 for the seller: the whole escrow back to its available balance.
    ctx.ledger.release(order.hold, order.hold.amount, P2pReasonCode.p2pDecidedReturn);
    endOrder(ctx, state, order, 'arbiterToSeller', command.arbiterId);
  }
  return ResultCode.ok;
}

// ------------------------------------------------------------------------------------------- clock

/**
 * Before any command of an envelope: every unpaid order whose window has ended (deadline <= time) is
 * cancelled (exit 2), in deadline then id order; a paid or appealed order is never touched. The counters
 * of a past day are dropped.
 */
export function p2pOnTime(ctx: CommandContext, state: P2pState): void {
  if (state.cancellations.size > 0 && state.counterDay !== p2pDayOf(ctx.timeMs)) state.cancellations.clear();
  if (state.orders.size === 0) return;
  let expired: P2pOrder[] | null = null;
  for (const [window, queue] of state.windowQueues) {
    let head = state.windowHeads.get(window) ?? 0;
    while (head < queue.length) {
      const order = queue[head] as P2pOrder;
      if (order.deadlineMs > ctx.timeMs) break;
      if (order.status === 'unpaid' && state.orders.get(order.orderId) === order)
        (expired ??= []).push(order);
      head += 1;
    }
    if (head === queue.length) {
      queue.length = 0;
      head = 0;
    } else if (head > 4096 && head * 2 > queue.length) {
      queue.splice(0, head);
      head = 0;
    }
    state.windowHeads.set(window, head);
  }
  if (expired === null) return;
  expired.sort((a, b) => a.deadlineMs - b.deadlineMs || a.orderId - b.orderId);
  for (const order of expired) {
    returnEscrow(ctx, state, order);
    endOrder(ctx, state, order, 'timedOut', 0);
    countCancellation(ctx, state, order.buyerId);
  }
}
