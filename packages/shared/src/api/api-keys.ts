// The replies of the API-key calls (docs/api-keys.md), declared once for the server that builds them and
// the clients that read them. Times are ISO 8601 text; a key's secret appears in the create reply only.

/** What a key may do: read the user's data, trade, withdraw (withdraw needs an IP allowlist). */
export type ApiKeyScope = 'read' | 'trade' | 'withdraw';

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
