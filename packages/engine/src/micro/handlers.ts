// Command handlers and hooks of the micro area. They reach the rest of the engine through the command
// context: the ledger (transfers and holds), the spot area's markets and the market data area's price chain.
import type { CommandContext } from '../kernel/context.ts';
import { FEES_OWNER_KEY, HOUSE_OWNER_KEY, ownerKeyOf } from '../ledger/accounts.ts';
import type { Account } from '../ledger/accounts.ts';
import { Hold } from '../ledger/holds.ts';
import type { Ledger } from '../ledger/ledger.ts';
import { MICRO_PAIRS, MICRO_PRICES } from './expected.ts';
import { ResultCode } from '../result-codes.ts';
import { MAX_AMOUNT, MAX_CURRENCY_ID, MAX_MARKET_ID } from '../limits.ts';
import { isAmount, isCount, isNatural } from '../validate.ts';
import { MicroReasonCode, MicroResultCode } from './codes.ts';
import type {
  SetMicroCurrencyCommand,
  SetMicroExposureCapCommand,
  SetMicroSecondsCommand,
  SetMicroStalenessCommand,
  SubmitMicroOrderCommand,
} from './commands.ts';
import {
  microFee,
  microPayout,
  microProfit,
  microRuleVersion,
  settleMicro,
  withinExposureCap,
} from './rules.ts';
import type { MicroPriceKind, MicroSample } from './rules.ts';
import { capKey } from './state.ts';
import type { MicroOrder, MicroState } from './state.ts';

/** The wallet index of `micro` (accounts.ts). */
export const MICRO_WALLET_INDEX = 2;
export const MAX_MICRO_SECONDS = 86_400;
export const MAX_MICRO_SECONDS_OPTIONS = 32;
export const MAX_MICRO_PRESETS = 16;
/** Profit ratios up to 1,000 % and fees up to 100 % (basis points). */
export const MAX_PROFIT_RATIO_BP = 100_000;
export const MAX_FEE_BP = 10_000;
export const MAX_MICRO_OPEN_ORDERS = 10_000;

/** Hold owner names: the stake on the user's micro wallet, the fee on the fees account's, the house reserve's. */
export const MICRO_STAKE_HOLDS = 'micro';
export const MICRO_FEE_HOLDS = 'micro.fee';
export const MICRO_RESERVE_HOLDS = 'micro.reserve';

function hasCurrency(ctx: CommandContext, currencyId: number): boolean {
  return ctx.ledger.currencies.has(currencyId);
}

function hasMarket(ctx: CommandContext, marketId: number): boolean {
  return ctx.port(MICRO_PAIRS).hasMarket(marketId);
}

/** The market's latest recorded price sample (its chain's newest link), if any. */
export function latestSample(ctx: CommandContext, marketId: number): MicroSample | undefined {
  const market = ctx.port(MICRO_PRICES);
  const mark = market.markPrice(marketId);
  const chain = market.priceChain(marketId);
  if (mark === undefined || chain === undefined || mark.seq === 0) return undefined;
  return {
    seq: mark.seq,
    timeMs: mark.timeMs,
    markTicks: mark.markTicks,
    indexTicks: mark.indexTicks,
    stale: mark.stale,
    hash: chain.latest.hash,
  };
}

/**
 * The sample as an order keeps it: an order that settles on the mark (rule v1) keeps no index, exactly as
 * before the index rule existed, so that its snapshot row and the state hash stay what they were.
 */
export function sampleFor(sample: MicroSample, price: MicroPriceKind): MicroSample {
  return price === 'index' || sample.indexTicks === null ? sample : { ...sample, indexTicks: null };
}

function changed(ctx: CommandContext, command: string): number {
  ctx.emit({ type: 'microConfigChanged', command });
  return ResultCode.ok;
}

export function setMicroSeconds(
  ctx: CommandContext,
  micro: MicroState,
  command: SetMicroSecondsCommand,
): number {
  const options: unknown = command.options;
  if (!Array.isArray(options) || options.length > MAX_MICRO_SECONDS_OPTIONS) return ResultCode.invalidField;
  const seen = new Set<number>();
  for (const option of options as unknown[]) {
    if (!Array.isArray(option) || option.length !== 2) return ResultCode.invalidField;
    const [seconds, ratio] = option as unknown[];
    if (!isCount(seconds, MAX_MICRO_SECONDS) || seen.has(seconds)) return ResultCode.invalidField;
    if (!isNatural(ratio, MAX_PROFIT_RATIO_BP)) return ResultCode.invalidField;
    seen.add(seconds);
  }
  micro.seconds.clear();
  const sorted = [...command.options].sort((a, b) => a[0] - b[0]);
  for (const [seconds, ratio] of sorted) micro.seconds.set(seconds, ratio);
  return changed(ctx, command.type);
}

export function setMicroCurrency(
  ctx: CommandContext,
  micro: MicroState,
  command: SetMicroCurrencyCommand,
): number {
  const { currencyId, feeBp, minStake, maxStake, maxOpenOrders } = command;
  if (!isCount(currencyId, MAX_CURRENCY_ID)) return ResultCode.invalidId;
  if (!hasCurrency(ctx, currencyId)) return ResultCode.currencyNotFound;
  if (!isNatural(feeBp, MAX_FEE_BP) || !isNatural(maxOpenOrders, MAX_MICRO_OPEN_ORDERS))
    return ResultCode.invalidField;
  if (!isAmount(minStake) || !isAmount(maxStake) || minStake > maxStake) return ResultCode.invalidAmount;
  const presets: unknown = command.presets;
  if (!Array.isArray(presets) || presets.length > MAX_MICRO_PRESETS) return ResultCode.invalidField;
  for (const preset of presets as unknown[])
    if (!isAmount(preset) || preset < minStake || preset > maxStake) return ResultCode.invalidAmount;
  micro.currencies.set(currencyId, {
    currencyId,
    feeBp,
    minStake,
    maxStake,
    presets: [...command.presets],
    maxOpenOrders,
  });
  return changed(ctx, command.type);
}

export function setMicroExposureCap(
  ctx: CommandContext,
  micro: MicroState,
  command: SetMicroExposureCapCommand,
): number {
  const { marketId, currencyId, exposureCap } = command;
  if (!isCount(marketId, MAX_MARKET_ID) || !isCount(currencyId, MAX_CURRENCY_ID)) return ResultCode.invalidId;
  if (!hasMarket(ctx, marketId)) return ResultCode.marketNotFound;
  if (!hasCurrency(ctx, currencyId)) return ResultCode.currencyNotFound;
  if (typeof exposureCap !== 'bigint' || exposureCap < 0n || exposureCap > MAX_AMOUNT)
    return ResultCode.invalidAmount;
  if (exposureCap === 0n) micro.caps.delete(capKey(marketId, currencyId));
  else micro.caps.set(capKey(marketId, currencyId), exposureCap);
  return changed(ctx, command.type);
}

export function setMicroStaleness(
  ctx: CommandContext,
  micro: MicroState,
  command: SetMicroStalenessCommand,
): number {
  if (!isCount(command.maxSampleAgeMs, 600_000)) return ResultCode.invalidField;
  micro.maxSampleAgeMs = command.maxSampleAgeMs;
  return changed(ctx, command.type);
}

function microAccount(ledger: Ledger, ownerKey: number, currencyId: number): Account {
  return ledger.account(ownerKey, MICRO_WALLET_INDEX, currencyId);
}

/**
 * Accepts an order: the stake is held on the user's micro wallet, the fee goes to the fees account (held
 * there until settlement, so a void can refund it), and the house reserve holds the order's possible
 * profit, so a payout can never take any balance below zero. Refused, with nothing changed, when a field
 * is invalid, the stake is out of range, the user has too many running orders, the pair's exposure cap
 * would be passed, or the user or the house reserve lacks the funds.
 */
export function submitMicroOrder(
  ctx: CommandContext,
  micro: MicroState,
  command: SubmitMicroOrderCommand,
): number {
  const userId = ownerKeyOf(command.userId);
  if (userId <= 0) return ResultCode.invalidOwner;
  const { marketId, currencyId, direction, seconds, stake } = command;
  if (!isCount(marketId, MAX_MARKET_ID) || !isCount(currencyId, MAX_CURRENCY_ID)) return ResultCode.invalidId;
  if (!hasMarket(ctx, marketId)) return ResultCode.marketNotFound;
  if (direction !== 1 && direction !== 2) return ResultCode.invalidSide;
  if (!isCount(seconds, MAX_MICRO_SECONDS)) return ResultCode.invalidField;
  if (!isAmount(stake)) return ResultCode.invalidAmount;
  const config = micro.currencies.get(currencyId);
  if (config === undefined || config.maxOpenOrders === 0) return MicroResultCode.microCurrencyNotPayable;
  const profitRatioBp = micro.seconds.get(seconds);
  if (profitRatioBp === undefined) return MicroResultCode.microSecondsNotOffered;
  if (stake < config.minStake || stake > config.maxStake) return MicroResultCode.microStakeOutOfRange;
  const settleOn: unknown = command.settleOn;
  if (settleOn !== undefined && settleOn !== 'index') return ResultCode.invalidField;
  const price: MicroPriceKind = settleOn === 'index' ? 'index' : 'mark';
  const cap = micro.caps.get(capKey(marketId, currencyId));
  if (cap === undefined) return MicroResultCode.microPairNotOpen;
  if (price === 'index') {
    // An order on the index is taken only on a fresh price: not while the latest sample is stale, has no
    // index, or is older than the staleness bound (its open would be void, or it would settle on an old price).
    const latest = latestSample(ctx, marketId);
    if (
      latest === undefined ||
      latest.stale ||
      latest.indexTicks === null ||
      ctx.timeMs - latest.timeMs > micro.maxSampleAgeMs
    )
      return MicroResultCode.microPriceStale;
  }
  if (micro.openCount(userId, currencyId) >= config.maxOpenOrders) return ResultCode.tooManyOpenOrders;
  const acceptedMs = ctx.timeMs;
  const expiryMs = acceptedMs + seconds * 1000;
  const profit = microProfit({ stake, profitRatioBp });
  const { up, down } = micro.bucket({ marketId, currencyId, expiryMs });
  if (!withinExposureCap({ up, down, direction, profit, cap }))
    return MicroResultCode.microExposureCapReached;
  const fee = microFee({ stake, feeBp: config.feeBp });
  const ledger = ctx.ledger;
  const user = ledger.findAccount(userId, MICRO_WALLET_INDEX, currencyId);
  if (user === undefined || user.available < stake + fee) return ResultCode.insufficientFunds;
  const reserve = ledger.findAccount(HOUSE_OWNER_KEY, MICRO_WALLET_INDEX, currencyId);
  if (profit > 0n && (reserve === undefined || reserve.available < profit))
    return ResultCode.houseInsufficientFunds;

  const orderId = micro.nextOrderId++;
  const stakeHold = new Hold(MICRO_STAKE_HOLDS, orderId, user, stake, MicroReasonCode.microStakeHold);
  ledger.hold(stakeHold);
  let feeHold: Hold | null = null;
  if (fee > 0n) {
    const fees = microAccount(ledger, FEES_OWNER_KEY, currencyId);
    ledger.transfer(user, fees, fee, MicroReasonCode.microFee, orderId);
    feeHold = new Hold(MICRO_FEE_HOLDS, orderId, fees, fee, MicroReasonCode.microFeeHold);
    ledger.hold(feeHold);
  }
  let reserveHold: Hold | null = null;
  if (profit > 0n) {
    reserveHold = new Hold(
      MICRO_RESERVE_HOLDS,
      orderId,
      reserve as Account,
      profit,
      MicroReasonCode.microReserveHold,
    );
    ledger.hold(reserveHold);
  }
  const order: MicroOrder = {
    orderId,
    userId,
    marketId,
    currencyId,
    direction,
    seconds,
    profitRatioBp,
    stake,
    fee,
    profit,
    acceptedMs,
    expiryMs,
    maxSampleAgeMs: micro.maxSampleAgeMs,
    settleOn: price,
    open: null,
    stakeHold,
    feeHold,
    reserveHold,
  };
  micro.addOrder(order);
  ctx.emit({
    type: 'microOrderPlaced',
    orderId,
    userId,
    marketId,
    currencyId,
    direction,
    seconds,
    profitRatioBp,
    stake,
    fee,
    acceptedMs,
    expiryMs,
  });
  ctx.reply({ orderId, acceptedMs, expiryMs, stake, fee, profitRatioBp });
  return ResultCode.ok;
}

/**
 * Price-sample hook: called after a market's new sample is recorded. Every running order of the market
 * accepted strictly before the sample's time and still without an open sample takes it as its open sample;
 * when it is not fresh the order is void at once.
 */
export function microOnPriceSample(
  ctx: CommandContext,
  micro: MicroState,
  marketId: number,
  sample: MicroSample,
): void {
  for (const order of micro.takeAwaitingOpen(marketId, sample.timeMs)) {
    const open = sampleFor(sample, order.settleOn);
    order.open = open;
    ctx.emit({ type: 'microOrderOpened', orderId: order.orderId, userId: order.userId, open });
    const fresh = settleMicro({
      direction: order.direction,
      acceptedMs: order.acceptedMs,
      expiryMs: order.expiryMs,
      maxSampleAgeMs: order.maxSampleAgeMs,
      open,
      end: open,
      price: order.settleOn,
    });
    if (fresh.outcome === 'void' && fresh.voidReason !== 'staleEnd') settle(ctx, micro, order, null);
  }
}

/**
 * Time hook: called with the command time in force before a command records new samples, and after every
 * other accepted command. Every order whose expiry lies strictly before the command time settles on its
 * market's latest sample, which is then the last sample at or before the expiry (samples carry their
 * command's time, and time never runs backwards). Orders settle in (expiry, id) order.
 */
export function microOnTime(ctx: CommandContext, micro: MicroState): void {
  // Settling records no sample: each market's latest is read once however many of its orders expire.
  let latestOf: Map<number, MicroSample | undefined> | undefined;
  for (;;) {
    const order = micro.takeExpiredBefore(ctx.timeMs);
    if (order === undefined) return;
    latestOf ??= new Map();
    let latest = latestOf.get(order.marketId);
    if (latest === undefined && !latestOf.has(order.marketId)) {
      latest = latestSample(ctx, order.marketId);
      latestOf.set(order.marketId, latest);
    }
    settle(ctx, micro, order, latest !== undefined && latest.timeMs <= order.expiryMs ? latest : null);
  }
}

function settle(ctx: CommandContext, micro: MicroState, order: MicroOrder, latest: MicroSample | null): void {
  const end = latest === null ? null : sampleFor(latest, order.settleOn);
  const ledger = ctx.ledger;
  const { orderId, userId, currencyId, stake, fee, profit } = order;
  const { outcome, voidReason } = settleMicro({
    direction: order.direction,
    acceptedMs: order.acceptedMs,
    expiryMs: order.expiryMs,
    maxSampleAgeMs: order.maxSampleAgeMs,
    open: order.open,
    end,
    price: order.settleOn,
  });
  const { payout, feeRefund } = microPayout({ outcome, stake, profit, fee });
  const user = microAccount(ledger, userId, currencyId);
  const reserve = microAccount(ledger, HOUSE_OWNER_KEY, currencyId);
  const { stakeHold, feeHold, reserveHold } = order;
  if (reserveHold !== null) ledger.release(reserveHold, profit, MicroReasonCode.microReserveRelease);
  if (feeHold !== null) {
    if (feeRefund > 0n) ledger.post(feeHold, user, feeRefund, MicroReasonCode.microFeeRefund, orderId);
    else ledger.release(feeHold, fee, MicroReasonCode.microFeeRelease);
  }
  if (outcome === 'loss') {
    ledger.post(stakeHold, reserve, stake, MicroReasonCode.microStakeLost, orderId);
  } else {
    ledger.release(stakeHold, stake, MicroReasonCode.microStakeRelease);
    if (outcome === 'win' && profit > 0n)
      ledger.transfer(reserve, user, profit, MicroReasonCode.microPayout, orderId);
  }
  micro.removeOrder(order);
  ctx.emit({
    type: 'microOrderSettled',
    orderId,
    userId,
    marketId: order.marketId,
    currencyId,
    direction: order.direction,
    seconds: order.seconds,
    profitRatioBp: order.profitRatioBp,
    stake,
    fee,
    acceptedMs: order.acceptedMs,
    expiryMs: order.expiryMs,
    maxSampleAgeMs: order.maxSampleAgeMs,
    outcome,
    voidReason,
    open: order.open,
    end: outcome === 'void' && voidReason !== 'staleEnd' ? null : end,
    payout,
    feeRefund,
    ruleVersion: microRuleVersion(order.settleOn),
  });
}
