// Command handlers and hooks of the micro area. They reach the rest of the engine only through MicroDeps,
// so the area can be moved behind another engine shell without changing its rules.
import { FEES_OWNER_KEY, HOUSE_OWNER_KEY, ownerKeyOf } from '../ledger/accounts.ts';
import type { Account } from '../ledger/accounts.ts';
import type { Ledger } from '../ledger/ledger.ts';
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
import type { MicroEvent } from './events.ts';
import {
  MICRO_RULE_VERSION,
  microFee,
  microPayout,
  microProfit,
  settleMicro,
  withinExposureCap,
} from './rules.ts';
import type { MicroSample } from './rules.ts';
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

// Result codes shared with the engine (result-codes.ts holds the same numbers under the same names).
const OK = 0;
const INVALID_ID = 1005;
const INVALID_OWNER = 1006;
const INVALID_AMOUNT = 1009;
const INVALID_SIDE = 1013;
const INVALID_FIELD = 1019;
const INSUFFICIENT_FUNDS = 2000;
const HOUSE_INSUFFICIENT_FUNDS = 2001;
const CURRENCY_NOT_FOUND = 3000;
const MARKET_NOT_FOUND = 3001;
const TOO_MANY_OPEN_ORDERS = 3006;

/** What the micro area needs from the engine around it. */
export type MicroDeps = {
  readonly micro: MicroState;
  /** Balance postings; each emits its own balance events. */
  readonly ledger: Ledger;
  /** The command time in force. */
  readonly timeMs: number;
  emit(event: MicroEvent): void;
  reply(value: unknown): void;
  hasCurrency(currencyId: number): boolean;
  hasMarket(marketId: number): boolean;
  /** The market's latest recorded price sample (its chain's newest link), if any. */
  latestSample(marketId: number): MicroSample | undefined;
};

function changed(deps: MicroDeps, command: string): number {
  deps.emit({ type: 'microConfigChanged', command });
  return OK;
}

export function setMicroSeconds(deps: MicroDeps, command: SetMicroSecondsCommand): number {
  const options: unknown = command.options;
  if (!Array.isArray(options) || options.length > MAX_MICRO_SECONDS_OPTIONS) return INVALID_FIELD;
  const seen = new Set<number>();
  for (const option of options as unknown[]) {
    if (!Array.isArray(option) || option.length !== 2) return INVALID_FIELD;
    const [seconds, ratio] = option as unknown[];
    if (!isCount(seconds, MAX_MICRO_SECONDS) || seen.has(seconds)) return INVALID_FIELD;
    if (!isNatural(ratio, MAX_PROFIT_RATIO_BP)) return INVALID_FIELD;
    seen.add(seconds);
  }
  deps.micro.seconds.clear();
  const sorted = [...command.options].sort((a, b) => a[0] - b[0]);
  for (const [seconds, ratio] of sorted) deps.micro.seconds.set(seconds, ratio);
  return changed(deps, command.type);
}

export function setMicroCurrency(deps: MicroDeps, command: SetMicroCurrencyCommand): number {
  const { currencyId, feeBp, minStake, maxStake, maxOpenOrders } = command;
  if (!isCount(currencyId, MAX_CURRENCY_ID)) return INVALID_ID;
  if (!deps.hasCurrency(currencyId)) return CURRENCY_NOT_FOUND;
  if (!isNatural(feeBp, MAX_FEE_BP) || !isNatural(maxOpenOrders, MAX_MICRO_OPEN_ORDERS)) return INVALID_FIELD;
  if (!isAmount(minStake) || !isAmount(maxStake) || minStake > maxStake) return INVALID_AMOUNT;
  const presets: unknown = command.presets;
  if (!Array.isArray(presets) || presets.length > MAX_MICRO_PRESETS) return INVALID_FIELD;
  for (const preset of presets as unknown[])
    if (!isAmount(preset) || preset < minStake || preset > maxStake) return INVALID_AMOUNT;
  deps.micro.currencies.set(currencyId, {
    currencyId,
    feeBp,
    minStake,
    maxStake,
    presets: [...command.presets],
    maxOpenOrders,
  });
  return changed(deps, command.type);
}

export function setMicroExposureCap(deps: MicroDeps, command: SetMicroExposureCapCommand): number {
  const { marketId, currencyId, exposureCap } = command;
  if (!isCount(marketId, MAX_MARKET_ID) || !isCount(currencyId, MAX_CURRENCY_ID)) return INVALID_ID;
  if (!deps.hasMarket(marketId)) return MARKET_NOT_FOUND;
  if (!deps.hasCurrency(currencyId)) return CURRENCY_NOT_FOUND;
  if (typeof exposureCap !== 'bigint' || exposureCap < 0n || exposureCap > MAX_AMOUNT) return INVALID_AMOUNT;
  if (exposureCap === 0n) deps.micro.caps.delete(capKey(marketId, currencyId));
  else deps.micro.caps.set(capKey(marketId, currencyId), exposureCap);
  return changed(deps, command.type);
}

export function setMicroStaleness(deps: MicroDeps, command: SetMicroStalenessCommand): number {
  if (!isCount(command.maxSampleAgeMs, 600_000)) return INVALID_FIELD;
  deps.micro.maxSampleAgeMs = command.maxSampleAgeMs;
  return changed(deps, command.type);
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
export function submitMicroOrder(deps: MicroDeps, command: SubmitMicroOrderCommand): number {
  const micro = deps.micro;
  const userId = ownerKeyOf(command.userId);
  if (userId <= 0) return INVALID_OWNER;
  const { marketId, currencyId, direction, seconds, stake } = command;
  if (!isCount(marketId, MAX_MARKET_ID) || !isCount(currencyId, MAX_CURRENCY_ID)) return INVALID_ID;
  if (!deps.hasMarket(marketId)) return MARKET_NOT_FOUND;
  if (direction !== 1 && direction !== 2) return INVALID_SIDE;
  if (!isCount(seconds, MAX_MICRO_SECONDS)) return INVALID_FIELD;
  if (!isAmount(stake)) return INVALID_AMOUNT;
  const config = micro.currencies.get(currencyId);
  if (config === undefined || config.maxOpenOrders === 0) return MicroResultCode.microCurrencyNotPayable;
  const profitRatioBp = micro.seconds.get(seconds);
  if (profitRatioBp === undefined) return MicroResultCode.microSecondsNotOffered;
  if (stake < config.minStake || stake > config.maxStake) return MicroResultCode.microStakeOutOfRange;
  const cap = micro.caps.get(capKey(marketId, currencyId));
  if (cap === undefined) return MicroResultCode.microPairNotOpen;
  if (micro.openCount(userId, currencyId) >= config.maxOpenOrders) return TOO_MANY_OPEN_ORDERS;
  const acceptedMs = deps.timeMs;
  const expiryMs = acceptedMs + seconds * 1000;
  const profit = microProfit({ stake, profitRatioBp });
  const { up, down } = micro.bucket({ marketId, currencyId, expiryMs });
  if (!withinExposureCap({ up, down, direction, profit, cap }))
    return MicroResultCode.microExposureCapReached;
  const fee = microFee({ stake, feeBp: config.feeBp });
  const ledger = deps.ledger;
  const user = ledger.findAccount(userId, MICRO_WALLET_INDEX, currencyId);
  if (user === undefined || user.available < stake + fee) return INSUFFICIENT_FUNDS;
  const reserve = ledger.findAccount(HOUSE_OWNER_KEY, MICRO_WALLET_INDEX, currencyId);
  if (profit > 0n && (reserve === undefined || reserve.available < profit)) return HOUSE_INSUFFICIENT_FUNDS;

  const orderId = micro.nextOrderId++;
  ledger.hold(user, stake, MicroReasonCode.microStakeHold, orderId);
  if (fee > 0n) {
    const fees = microAccount(ledger, FEES_OWNER_KEY, currencyId);
    ledger.transfer(user, fees, fee, MicroReasonCode.microFee, orderId);
    ledger.hold(fees, fee, MicroReasonCode.microFeeHold, orderId);
  }
  if (profit > 0n) ledger.hold(reserve as Account, profit, MicroReasonCode.microReserveHold, orderId);
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
    open: null,
  };
  micro.addOrder(order);
  deps.emit({
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
  deps.reply({ orderId, acceptedMs, expiryMs, stake, fee, profitRatioBp });
  return OK;
}

/**
 * Price-sample hook: called after a market's new sample is recorded. Every running order of the market
 * accepted strictly before the sample's time and still without an open sample takes it as its open sample;
 * when it is not fresh the order is void at once.
 */
export function microOnPriceSample(deps: MicroDeps, marketId: number, sample: MicroSample): void {
  const micro = deps.micro;
  for (const order of micro.takeAwaitingOpen(marketId, sample.timeMs)) {
    order.open = sample;
    deps.emit({ type: 'microOrderOpened', orderId: order.orderId, userId: order.userId, open: sample });
    const fresh = settleMicro({
      direction: order.direction,
      acceptedMs: order.acceptedMs,
      expiryMs: order.expiryMs,
      maxSampleAgeMs: order.maxSampleAgeMs,
      open: sample,
      end: sample,
    });
    if (fresh.outcome === 'void' && fresh.voidReason !== 'staleEnd') settle(deps, order, null);
  }
}

/**
 * Time hook: called with the command time in force before a command records new samples, and after every
 * other accepted command. Every order whose expiry lies strictly before the command time settles on its
 * market's latest sample, which is then the last sample at or before the expiry (samples carry their
 * command's time, and time never runs backwards). Orders settle in (expiry, id) order.
 */
export function microOnTime(deps: MicroDeps): void {
  const micro = deps.micro;
  for (;;) {
    const order = micro.takeExpiredBefore(deps.timeMs);
    if (order === undefined) return;
    const latest = deps.latestSample(order.marketId);
    settle(deps, order, latest !== undefined && latest.timeMs <= order.expiryMs ? latest : null);
  }
}

function settle(deps: MicroDeps, order: MicroOrder, end: MicroSample | null): void {
  const micro = deps.micro;
  const ledger = deps.ledger;
  const { orderId, userId, currencyId, stake, fee, profit } = order;
  const { outcome, voidReason } = settleMicro({
    direction: order.direction,
    acceptedMs: order.acceptedMs,
    expiryMs: order.expiryMs,
    maxSampleAgeMs: order.maxSampleAgeMs,
    open: order.open,
    end,
  });
  const { payout, feeRefund } = microPayout({ outcome, stake, profit, fee });
  const user = microAccount(ledger, userId, currencyId);
  const reserve = microAccount(ledger, HOUSE_OWNER_KEY, currencyId);
  if (profit > 0n) ledger.release(reserve, profit, MicroReasonCode.microReserveRelease, orderId);
  if (fee > 0n) {
    const fees = microAccount(ledger, FEES_OWNER_KEY, currencyId);
    if (feeRefund > 0n) ledger.post(fees, user, feeRefund, MicroReasonCode.microFeeRefund, orderId);
    else ledger.release(fees, fee, MicroReasonCode.microFeeRelease, orderId);
  }
  if (outcome === 'loss') {
    ledger.post(user, reserve, stake, MicroReasonCode.microStakeLost, orderId);
  } else {
    ledger.release(user, stake, MicroReasonCode.microStakeRelease, orderId);
    if (outcome === 'win' && profit > 0n)
      ledger.transfer(reserve, user, profit, MicroReasonCode.microPayout, orderId);
  }
  micro.removeOrder(order);
  deps.emit({
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
    ruleVersion: MICRO_RULE_VERSION,
  });
}
