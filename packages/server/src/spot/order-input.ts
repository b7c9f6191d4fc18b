// Turns the decimal text of an order's price and quantity into the engine's integer ticks and lots, at the
// market's own precision. Every refusal names a message key of the server catalogue and its parameters, so
// the caller can answer in the request's language; nothing here throws on bad input.
import { MAX_PRICE_TICKS, MAX_QUANTITY_LOTS } from '@fairex/engine';
import type { MessageKey, MessageParams } from '@fairex/shared';
import { MAX_SCALE, formatDecimal, tryParseDecimal } from '@fairex/shared';
import type { SpotMarket } from './markets.ts';
import { formatLots } from './markets.ts';

export type Parsed<T> = { ok: true; value: T } | { ok: false; key: MessageKey; params: MessageParams };

/** Which input a refusal is about; the caller turns it into the translated field name. */
export type OrderField = 'price' | 'num' | 'stop_price';

/**
 * The translated field name a refusal names: the text, or a function giving it, called only when there is
 * a refusal to word (an accepted order never needs it).
 */
export type FieldText = string | (() => string);

function nameOf(field: FieldText): string {
  return typeof field === 'string' ? field : field();
}

function refuse(
  key: MessageKey,
  params: MessageParams = {},
): { ok: false; key: MessageKey; params: MessageParams } {
  return { ok: false, key, params };
}

/**
 * A decimal text at `scale`, as a positive integer count of 10^-scale units, with the catalogue message for
 * each way it can be wrong. `field` is the already translated field name.
 */
function parsePositive(text: string, scale: number, fieldText: FieldText): Parsed<bigint> {
  const result = tryParseDecimal(text.trim(), scale);
  if (result.ok) {
    return result.value > 0n ? result : refuse('validation.decimal_positive', { field: nameOf(fieldText) });
  }
  const field = nameOf(fieldText);
  switch (result.code) {
    case 'sign':
      return refuse(text.trim().startsWith('-') ? 'validation.decimal_negative' : 'validation.decimal', {
        field,
      });
    case 'scale':
      return refuse('validation.decimal_scale', { field, scale });
    case 'range':
      return refuse('validation.decimal_range', { field });
    default:
      return refuse('validation.decimal', { field });
  }
}

/** A limit price as whole ticks of the market: positive, at most the price scale's decimals, on the tick. */
export function parsePriceTicks(market: SpotMarket, text: string, field: FieldText): Parsed<number> {
  const units = parsePositive(text, market.priceScale, field);
  if (!units.ok) return units;
  if (units.value % market.tickUnits !== 0n) {
    return refuse('spot.price_tick', {
      field: nameOf(field),
      tick: formatDecimal(market.tickUnits, market.priceScale),
    });
  }
  const ticks = units.value / market.tickUnits;
  if (ticks > BigInt(MAX_PRICE_TICKS)) return refuse('validation.decimal_range', { field: nameOf(field) });
  return { ok: true, value: Number(ticks) };
}

/**
 * A positive quantity below the market's minimum (the minimum lots times the lot), however many decimals it
 * has: 0.00001 on a market whose minimum is 0.0001 is "below the minimum 0.0001", not a decimals error.
 */
function belowMinimum(market: SpotMarket, text: string, field: FieldText) {
  const fine = tryParseDecimal(text.trim(), MAX_SCALE, { max: 10n ** 80n });
  if (!fine.ok || fine.value <= 0n) return undefined;
  const minimumMinor = BigInt(market.minimumLots) * market.lotBaseMinor;
  if (fine.value >= minimumMinor * 10n ** BigInt(MAX_SCALE - market.baseScale)) return undefined;
  return refuse('spot.number_below_minimum_of', {
    field: nameOf(field),
    minimum: formatLots(market, market.minimumLots),
    currency: market.baseCode,
  });
}

/** A quantity as whole lots of the market: positive, within the base scale, on the lot, at least the minimum. */
export function parseQuantityLots(market: SpotMarket, text: string, fieldText: FieldText): Parsed<number> {
  // The usual order, answered by one parse: a positive quantity on the lot, from the minimum to the range's
  // end. Anything else takes the checks below, in their order, for the message that names what is wrong.
  const usual = tryParseDecimal(text.trim(), market.baseScale);
  if (usual.ok && usual.value > 0n && usual.value % market.lotBaseMinor === 0n) {
    const lots = usual.value / market.lotBaseMinor;
    if (lots >= BigInt(market.minimumLots) && lots <= BigInt(MAX_QUANTITY_LOTS)) {
      return { ok: true, value: Number(lots) };
    }
  }
  const field = nameOf(fieldText);
  const below = belowMinimum(market, text, field);
  if (below !== undefined) return below;
  const minor = parsePositive(text, market.baseScale, field);
  if (!minor.ok) {
    // The base currency's full scale is finer than the lot; name the lot's decimals, which is what counts.
    return minor.key === 'validation.decimal_scale'
      ? refuse('validation.decimal_scale', { field, scale: market.quantityScale })
      : minor;
  }
  if (minor.value % market.lotBaseMinor !== 0n) {
    // A lot of 0.0001 is a limit on decimals; a lot of 0.5 is a step, which needs saying as such.
    return isPowerOfTen(market.lotBaseMinor)
      ? refuse('validation.decimal_scale', { field, scale: market.quantityScale })
      : refuse('spot.number_lot', { field, lot: formatLots(market, 1), currency: market.baseCode });
  }
  const lots = minor.value / market.lotBaseMinor;
  if (lots > BigInt(MAX_QUANTITY_LOTS)) return refuse('validation.decimal_range', { field });
  if (lots < BigInt(market.minimumLots)) {
    return refuse('spot.number_below_minimum_of', {
      field,
      minimum: formatLots(market, market.minimumLots),
      currency: market.baseCode,
    });
  }
  return { ok: true, value: Number(lots) };
}

function isPowerOfTen(value: bigint): boolean {
  let rest = value;
  while (rest % 10n === 0n) rest /= 10n;
  return rest === 1n;
}

/** A limit order's value must reach the market's minimum, when it has one. */
export function checkMinimumValue(market: SpotMarket, priceTicks: number, lots: number): Parsed<bigint> {
  const value = BigInt(priceTicks) * BigInt(lots) * market.quoteMinorPerTickLot;
  if (value < market.minNotionalMinor) {
    return refuse('spot.total_minimum', {
      minimum: formatDecimal(market.minNotionalMinor, market.quoteScale, { trim: true }),
      currency: market.quoteCode,
    });
  }
  return { ok: true, value };
}
