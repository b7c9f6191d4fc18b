// Every quantity the engine accepts has an upper bound, so that no input can push a safe integer past
// 2^53, make a bigint grow without bound, or make a structure grow without bound.

/** Users are identified by positive 31-bit integers (a PostgreSQL `integer` primary key). */
export const MAX_USER_ID = 2_147_483_647;
/** Currency and market ids are packed into 16 bits of an account key. */
export const MAX_CURRENCY_ID = 65_535;
export const MAX_MARKET_ID = 65_535;
/** Decimal places of a currency's minor unit. */
export const MAX_CURRENCY_SCALE = 18;
/** Prices are integer ticks and quantities integer lots; both stay far below 2^53. */
export const MAX_PRICE_TICKS = 1_000_000_000_000;
export const MAX_QUANTITY_LOTS = 1_000_000_000_000;
/** One command moves at most this many minor units (10^36). */
export const MAX_AMOUNT = 10n ** 36n;
/** Fee rates are parts per million; 100,000 ppm (10 %) is the ceiling, which catches a rate given in the wrong unit. */
export const MAX_FEE_PPM = 100_000;
export const PPM = 1_000_000n;
/** Free-text fields (memos, client order ids, idempotency keys) are short. */
export const MAX_MEMO_LENGTH = 256;
export const MAX_CLIENT_ORDER_ID_LENGTH = 64;
export const MAX_IDEMPOTENCY_KEY_LENGTH = 128;
export const MAX_CURRENCY_CODE_LENGTH = 16;
/** Depth requests are capped so a read can never copy a whole book. */
export const MAX_DEPTH_LEVELS = 1_000;
/**
 * A market order's price-protection band, in parts per million of the reference price (the mark, or the
 * best opposite price when the market has no mark yet): a buy fills at most that far above it, a sell at
 * most that far below. 50,000 ppm is 5 %; 0 turns the band off; 900,000 ppm (90 %) is the ceiling.
 */
export const DEFAULT_MARKET_BAND_PPM = 50_000;
export const MAX_MARKET_BAND_PPM = 900_000;

/** Defaults for the engine's behavioural options (they are part of the snapshot). */
export const DEFAULT_IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
export const DEFAULT_IDEMPOTENCY_MAX_KEYS = 1_000_000;
export const DEFAULT_MAX_OPEN_ORDERS_PER_OWNER = 10_000;
