// The custody provider's wire protocol (uDun's gateway protocol). Both directions carry four fields:
// `timestamp`, `nonce`, `sign` and `body`, where `body` is JSON text and
// `sign` = lowercase hex md5 of (body + api key + nonce + timestamp). Callbacks arrive form-encoded; requests
// to the provider go out as a JSON object with the same four fields.
//
// A trade (the JSON in a callback's body) reports a deposit (tradeType 1) or a withdrawal (tradeType 2) with
// amounts as integers of the coin's smallest unit (`decimals` places). Status 3 means confirmed on chain.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const TRADE_DEPOSIT = 1;
export const TRADE_WITHDRAWAL = 2;

/** Trade status codes: 0 awaiting the provider's review, 1 approved, 2 rejected, 3 confirmed, 4 failed. */
export const TRADE_STATUS = { reviewing: 0, approved: 1, rejected: 2, confirmed: 3, failed: 4 } as const;

export function custodySign(body: string, apiKey: string, nonce: string, timestamp: string): string {
  return createHash('md5').update(`${body}${apiKey}${nonce}${timestamp}`, 'utf8').digest('hex');
}

/** Compares in constant time; a sign of the wrong shape is simply wrong. */
export function custodySignMatches(
  sign: string,
  body: string,
  apiKey: string,
  nonce: string,
  timestamp: string,
): boolean {
  const given = sign.trim().toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(given)) return false;
  const expected = custodySign(body, apiKey, nonce, timestamp);
  return timingSafeEqual(Buffer.from(given, 'utf8'), Buffer.from(expected, 'utf8'));
}

/** Milliseconds of a protocol timestamp (milliseconds; ten-digit values are read as seconds). */
export function timestampMs(timestamp: string): number | undefined {
  if (!/^\d{10,13}$/.test(timestamp)) return undefined;
  const value = Number(timestamp);
  return timestamp.length <= 11 ? value * 1000 : value;
}

export interface CustodyTrade {
  address: string;
  /** Integer in the coin's smallest unit. */
  amount: bigint;
  decimals: number;
  /** Network fee in the main coin's smallest unit, as reported; 0 when absent. */
  fee: bigint;
  mainCoinType: string;
  coinType: string;
  txId: string;
  tradeId: string;
  tradeType: number;
  status: number;
  /** Our withdrawal id, for tradeType 2. */
  businessId: string;
  memo: string;
}

export type TradeParse = { ok: true; trade: CustodyTrade } | { ok: false; reason: string };

const MAX_TEXT = 256;

function textField(record: Record<string, unknown>, name: string, required: boolean): string | undefined {
  const value = record[name];
  if (value === undefined || value === null || value === '') return required ? undefined : '';
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  if (typeof value !== 'string' || value.length > MAX_TEXT || hasControlCharacter(value)) return undefined;
  return value.trim();
}

function hasControlCharacter(value: string): boolean {
  for (let index = 0; index < value.length; index += 1) if (value.charCodeAt(index) < 0x20) return true;
  return false;
}

/** An unsigned integer given as a string or a safe JSON number. */
function integerField(record: Record<string, unknown>, name: string, required: boolean): bigint | undefined {
  const text = textField(record, name, required);
  if (text === undefined) return undefined;
  if (text === '') return 0n;
  return /^\d{1,40}$/.test(text) ? BigInt(text) : undefined;
}

/** Reads and checks the JSON of a callback body. */
export function parseTrade(body: string): TradeParse {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { ok: false, reason: 'body is not JSON' };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { ok: false, reason: 'body is not a JSON object' };
  }
  const record = parsed as Record<string, unknown>;
  const amount = integerField(record, 'amount', true);
  const decimals = integerField(record, 'decimals', true);
  const fee = integerField(record, 'fee', false);
  const tradeType = integerField(record, 'tradeType', true);
  const status = integerField(record, 'status', true);
  const fields = {
    address: textField(record, 'address', true),
    mainCoinType: textField(record, 'mainCoinType', true),
    coinType: textField(record, 'coinType', true),
    txId: textField(record, 'txId', false),
    tradeId: textField(record, 'tradeId', false),
    businessId: textField(record, 'businessId', false),
    memo: textField(record, 'memo', false),
  };
  for (const [name, value] of Object.entries({ amount, decimals, fee, tradeType, status, ...fields })) {
    if (value === undefined) return { ok: false, reason: `field ${name} is missing or malformed` };
  }
  if ((decimals as bigint) > 36n) return { ok: false, reason: 'field decimals is out of range' };
  if (tradeType !== 1n && tradeType !== 2n)
    return { ok: false, reason: 'field tradeType is neither 1 nor 2' };
  if ((status as bigint) > 9n) return { ok: false, reason: 'field status is out of range' };
  return {
    ok: true,
    trade: {
      address: fields.address as string,
      amount: amount as bigint,
      decimals: Number(decimals),
      fee: fee as bigint,
      mainCoinType: fields.mainCoinType as string,
      coinType: fields.coinType as string,
      txId: fields.txId as string,
      tradeId: fields.tradeId as string,
      tradeType: Number(tradeType),
      status: Number(status),
      businessId: fields.businessId as string,
      memo: fields.memo as string,
    },
  };
}

/** The four signed fields of a request to the provider, for a body already serialised as JSON text. */
export function signedEnvelope(
  body: string,
  apiKey: string,
  nowMs: number,
): { timestamp: string; nonce: string; sign: string; body: string } {
  const timestamp = String(nowMs);
  const nonce = randomBytes(6).toString('hex');
  return { timestamp, nonce, sign: custodySign(body, apiKey, nonce, timestamp), body };
}

/**
 * An amount of `decimals` places in the currency's minor units (its `scale`): exact when the currency is at
 * least as fine; otherwise the digits beyond the currency's scale cannot be credited and are reported as
 * `dust` (they stay with the exchange's custody wallet, and the deposit record keeps the raw amount).
 */
export function toMinorUnits(
  amount: bigint,
  decimals: number,
  scale: number,
): { minor: bigint; dust: bigint } {
  if (decimals <= scale) return { minor: amount * 10n ** BigInt(scale - decimals), dust: 0n };
  const divisor = 10n ** BigInt(decimals - scale);
  return { minor: amount / divisor, dust: amount % divisor };
}
