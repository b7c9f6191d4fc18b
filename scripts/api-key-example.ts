// `node scripts/api-key-example.ts <base url> <key> <secret> [METHOD] [path] [JSON body]`: one signed call
// with a Fairex API key, printed as the exchange answers it. For example:
//
//   node scripts/api-key-example.ts http://localhost:3000 fx_0123... 9f3c... GET /api/orders/open
//   node scripts/api-key-example.ts http://localhost:3000 fx_0123... 9f3c... POST /api/transaction/in \
//     '{"legal_id":3,"currency_id":1,"price":"30000","num":"0.001","time_in_force":"post_only"}'
//
// The signature is HMAC-SHA256 with the key's secret over timestamp + METHOD + path (with any query string)
// + body, in hex; the timestamp is milliseconds since the epoch and must be within 5 seconds of the
// exchange's clock; each signature is accepted once (docs/api-keys.md). It uses node:crypto only, so it is
// also a worked example for a bot in any language.
import { createHmac } from 'node:crypto';

export interface SignedRequest {
  key: string;
  secret: string;
  method: string;
  /** The path as sent, with its query string: "/api/orders/history?status=filled". */
  path: string;
  /** The body exactly as sent ('' for none). */
  body: string;
  timestampMs?: number;
}

/** The three headers of a signed request. */
export function signedHeaders(request: SignedRequest): Record<string, string> {
  const timestamp = String(request.timestampMs ?? Date.now());
  const signature = createHmac('sha256', request.secret)
    .update(`${timestamp}${request.method.toUpperCase()}${request.path}${request.body}`)
    .digest('hex');
  return { 'X-FX-KEY': request.key, 'X-FX-TIMESTAMP': timestamp, 'X-FX-SIGNATURE': signature };
}

async function main(): Promise<void> {
  const [baseUrl, key, secret, method = 'GET', path = '/api/orders/open', body = ''] = process.argv.slice(2);
  if (baseUrl === undefined || key === undefined || secret === undefined) {
    console.error('usage: api-key-example.ts <base url> <key> <secret> [METHOD] [path] [JSON body]');
    process.exit(2);
  }
  const headers = signedHeaders({ key, secret, method, path, body });
  const response = await fetch(new URL(path, baseUrl), {
    method,
    headers: body === '' ? headers : { ...headers, 'content-type': 'application/json' },
    ...(body === '' ? {} : { body }),
  });
  console.log(response.status, await response.text());
}

if (import.meta.main) await main();
