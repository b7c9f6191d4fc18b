// The user's API keys (docs/api-keys.md): list, create (the secret comes back this once) and revoke.
// Signed-in session only; the replies are typed by the shared contract.
import { useQuery } from '@tanstack/react-query';
import type { ApiKeyCreated, ApiKeyScope, ApiKeyView, CreatedApiKey } from '@fairex/shared/api/api-keys.ts';
import { i18next } from '../i18n/index.ts';
import { ApiError, api, apiRaw, readEnvelope } from './api.ts';
import { useSession } from './session.ts';
import type { SecondFactorCodes } from './wallet.ts';

export type { ApiKeyScope, ApiKeyView, CreatedApiKey };

export const API_KEYS_KEY = ['api_keys', 'list'] as const;

export function useApiKeys() {
  const token = useSession((state) => state.token);
  return useQuery({
    queryKey: [...API_KEYS_KEY, token],
    queryFn: () => api.get<ApiKeyView[]>('/api_keys/list'),
    enabled: token !== null,
  });
}

export interface CreateApiKeyInput extends SecondFactorCodes {
  label: string;
  scopes: ApiKeyScope[];
  ips: string[];
}

/** Creates a key; the answer holds its secret, which the server never shows again. */
export async function createApiKey(input: CreateApiKeyInput): Promise<CreatedApiKey> {
  const { status, body } = await apiRaw('/api_keys/create', {
    method: 'POST',
    body: {
      label: input.label.trim(),
      scopes: input.scopes.join(','),
      ips: input.ips.length === 0 ? undefined : input.ips.join(','),
      totp_code: input.totpCode,
      code: input.code,
    },
  });
  readEnvelope(body, status);
  const created = (body as Partial<ApiKeyCreated>).key;
  if (created === undefined || typeof created.secret !== 'string') {
    throw new ApiError('bad-response', i18next.t('errors.badResponse'), status);
  }
  return created;
}

export function revokeApiKey(id: number): Promise<string> {
  return api.post<string>('/api_keys/revoke', { id });
}

/** The addresses typed into the allowlist box: split on commas, spaces or lines, blanks dropped. */
export function parseAllowlist(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}
