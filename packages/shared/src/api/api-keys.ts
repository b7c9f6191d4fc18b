// The API-key calls (docs/api-keys.md): their input schemas, the scopes a key may hold and their replies,
// declared once for the server that builds them and the clients that read them. Times are ISO 8601 text; a
// key's secret appears in the create reply only.
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

/** The scope type under the name the web uses. */
export type ApiKeyScope = ApiScope;

/** One key as `api_keys/list` answers it: never its secret. */
export interface ApiKeyView {
  id: number;
  /** The key id sent in `X-FX-KEY` (`fx_` and 32 hex digits). */
  key: string;
  label: string;
  scopes: ApiKeyScope[];
  /** Addresses the key is accepted from; empty allows any address. */
  ip_allowlist: string[];
  created_at: string;
  last_used_at: string | null;
  revoked: boolean;
}

/** A key just created, with the secret that signs its requests: shown this once. */
export interface CreatedApiKey extends ApiKeyView {
  secret: string;
}

/** The reply of `api_keys/create`. */
export interface ApiKeyCreated {
  message: string;
  key: CreatedApiKey;
}
