import { vi } from 'vitest';

// A fake /api for the account screens' tests: answers by path with the server's envelope and records the
// form bodies the screens sent.

export type Answer = { type: 'ok' | 'error' | '999'; message: unknown; [field: string]: unknown };
export type Handler = (body: URLSearchParams) => Answer;

export const COUNTRIES = [
  { country_id: 'CN', area_code: '86', name: 'China', name_cn: '中国', name_en: 'China' },
  { country_id: 'US', area_code: '1', name: 'United States', name_cn: '美国', name_en: 'United States' },
];

export const ok = (message: unknown): Answer => ({ type: 'ok', message });
export const refused = (message: string): Answer => ({ type: 'error', message });

export function fakeAccountApi(handlers: Record<string, Handler>) {
  const calls: { path: string; body: URLSearchParams }[] = [];
  const all: Record<string, Handler> = {
    '/user/countries': () => ok(COUNTRIES),
    '/user/register_config': () => ok({ invite_code_required: true }),
    ...handlers,
  };
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const path = url.pathname.replace(/^\/api/, '');
    const body = new URLSearchParams(init?.body instanceof URLSearchParams ? init.body : '');
    calls.push({ path, body });
    const handler = all[path];
    const answer = handler ? handler(body) : refused('This address does not exist.');
    return new Response(JSON.stringify(answer), { headers: { 'Content-Type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls };
}
