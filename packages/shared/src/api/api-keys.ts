// The API-key calls: their input schemas and the scopes a key may hold, declared once for the server and the
// clients.
import { z } from 'zod';
import { id, optional, text } from '../schema/fields.ts';

/** What a key may do: read, trade, or withdraw (withdraw only with an IP allowlist). */
export type ApiScope = 'read' | 'trade' | 'withdraw';
export const API_SCOPES: readonly ApiScope[] = ['read', 'trade', 'withdraw'];

/** A comma-separated list, trimmed, empty items dropped. */
const list = (max: number) =>
  text({ max }).transform((value) =>
    value
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item.length > 0),
  );

/**
 * POST /api_keys/create: a label, scopes ("read,trade"), an optional IP allowlist, and the second factor a
 * key with the withdraw scope needs.
 */
export const apiKeyCreateInput = z.object({
  label: text({ min: 1, max: 64 }),
  scopes: list(40).refine(
    (scopes) => scopes.every((scope) => (API_SCOPES as readonly string[]).includes(scope)),
    {
      message: 'scopes',
    },
  ),
  ips: optional(list(1000)),
  totp_code: optional(text({ max: 6, min: 6 })),
  code: optional(text({ max: 6, min: 6 })),
});

/** POST /api_keys/revoke: the key's id. */
export const apiKeyRevokeInput = z.object({ id: id() });
