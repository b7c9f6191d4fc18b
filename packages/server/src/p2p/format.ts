// The P2P area's small formats: fiat cents as text, percent basis points, times in Asia/Shanghai as the
// specs show them, the address of an order-room image, and a masked account.
import { formatDecimal, tryParseDecimal } from '@fairex/shared';
import { AppError } from '../http/app-error.ts';

export const FIAT_SCALE = 2;
export const DAY_MS = 86_400_000;

export function p2pImageAddress(uploadId: string): string {
  return `/api/p2p/upload/image?id=${uploadId}`;
}

export function cents(value: bigint): string {
  return formatDecimal(value, FIAT_SCALE);
}

export function parseFiat(text: string): bigint {
  const parsed = tryParseDecimal(text, FIAT_SCALE, { min: 1n });
  if (!parsed.ok) throw new AppError('validation.decimal_scale', { scale: FIAT_SCALE });
  return parsed.value;
}

/** A percent with two decimals (-20..20) as basis points. */
export function parsePercentBp(text: string): number {
  const parsed = tryParseDecimal(text, 2, { allowNegative: true, min: -2_000n, max: 2_000n });
  if (!parsed.ok) throw new AppError('p2p.float_range');
  return Number(parsed.value);
}

export function percentText(bp: bigint | number): string {
  return formatDecimal(BigInt(bp), 2);
}

/** A time as the specs show it, in Asia/Shanghai (UTC+8, no daylight saving): "2026-01-01 08:00:00". */
export function timeText(ms: number): string {
  return new Date(ms + 8 * 3_600_000).toISOString().replace('T', ' ').slice(0, 19);
}

export function maskAccount(account: string): string {
  const at = account.indexOf('@');
  const head = at > 0 ? account.slice(0, at) : account;
  return `${head.slice(0, 2)}***`;
}
