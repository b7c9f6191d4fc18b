// The request signature of an API key: HMAC-SHA256, keyed with the key's secret, over
//   timestamp + METHOD + path (with its query string, as sent) + body (the raw bytes as sent, '' if none)
// in lower-case hex. The timestamp is milliseconds since the epoch and must be within the replay window of
// the server clock; each signature is accepted once (api_key_requests). scripts/api-key-example.ts signs
// a request the same way.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** How far a request's timestamp may be from the server clock, either way. */
export const REPLAY_WINDOW_MS = 5_000;

export const HEADER_KEY = 'x-fx-key';
export const HEADER_TIMESTAMP = 'x-fx-timestamp';
export const HEADER_SIGNATURE = 'x-fx-signature';

export function signatureOf(
  secret: string,
  timestamp: string,
  method: string,
  path: string,
  body: string,
): string {
  return createHmac('sha256', secret)
    .update(`${timestamp}${method.toUpperCase()}${path}${body}`)
    .digest('hex');
}

/** Constant-time comparison of two hex signatures. */
export function sameSignature(expected: string, given: string): boolean {
  if (!/^[0-9a-f]{64}$/.test(given)) return false;
  return timingSafeEqual(Buffer.from(expected, 'hex'), Buffer.from(given, 'hex'));
}
