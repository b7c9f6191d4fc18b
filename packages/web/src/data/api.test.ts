import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, api, apiRequest } from './api.ts';
import { LOGIN_PROMPT_DELAY_MS, clearLoginRequest, refreshSession, sessionStore } from './session.ts';

interface Captured {
  url: URL;
  init: RequestInit;
}

function stubFetch(reply: () => Response | Promise<Response>): Captured[] {
  const calls: Captured[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit) => {
      calls.push({ url: new URL(input, 'http://fairex.test'), init });
      return reply();
    }),
  );
  return calls;
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

describe('api client', () => {
  beforeEach(() => {
    localStorage.clear();
    refreshSession();
    clearLoginRequest();
  });

  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('posts a form-encoded body with the language, a timestamp and the time zone in the query', async () => {
    const calls = stubFetch(() => json({ type: 'ok', message: { id: 7 } }));
    const message = await api.post('/user/check', { user_string: 'a@b.co', page: 2, skipped: undefined });
    expect(message).toEqual({ id: 7 });
    const [call] = calls;
    expect(call?.url.pathname).toBe('/api/user/check');
    expect(call?.url.searchParams.get('lang')).toBe('en');
    expect(call?.url.searchParams.get('timestamp')).toMatch(/^\d+$/);
    expect(call?.url.searchParams.get('timezone')).not.toBeNull();
    expect(call?.init.method).toBe('POST');
    expect(call?.init.body).toBeInstanceOf(URLSearchParams);
    expect(String(call?.init.body)).toBe('user_string=a%40b.co&page=2');
  });

  it('sends a JSON body when asked', async () => {
    const calls = stubFetch(() => json({ type: 'ok', message: 'done' }));
    await api.post('/wallet/change', { number: '1.5' }, { json: true });
    const headers = new Headers(calls[0]?.init.headers);
    expect(headers.get('Content-Type')).toBe('application/json');
    expect(calls[0]?.init.body).toBe('{"number":"1.5"}');
  });

  it('sends the stored token raw in Authorization, and none for a visitor', async () => {
    const calls = stubFetch(() => json({ type: 'ok', message: null }));
    await api.get('/user/info');
    expect(new Headers(calls[0]?.init.headers).has('Authorization')).toBe(false);
    localStorage.setItem('token', 'abc123');
    refreshSession();
    await api.get('/user/info', { id: 3 });
    expect(new Headers(calls[1]?.init.headers).get('Authorization')).toBe('abc123');
    expect(calls[1]?.url.searchParams.get('id')).toBe('3');
    expect(calls[1]?.init.method).toBe('GET');
  });

  it("turns an error envelope into an ApiError carrying the server's translated text", async () => {
    stubFetch(() => json({ type: 'error', message: 'Balance too low' }, 400));
    const failure = await apiRequest('/transaction/in').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ kind: 'rejected', message: 'Balance too low', status: 400 });
  });

  it('reports real-name-required (998) as its own kind', async () => {
    stubFetch(() => json({ type: '998', message: '' }));
    await expect(apiRequest('/wallet/out')).rejects.toMatchObject({
      kind: 'real-name-required',
      message: 'Please complete identity verification first.',
    });
  });

  it('on 999 forgets token and user id at once and asks for the login dialog half a second later', async () => {
    vi.useFakeTimers();
    localStorage.setItem('token', 'stale');
    localStorage.setItem('user_id', '42');
    localStorage.setItem('accountNum', 'a@b.co');
    localStorage.setItem('lang', 'en');
    refreshSession();
    stubFetch(() => json({ type: '999', message: 'Please log in' }));

    const results = await Promise.allSettled([api.post('/lever/deal'), api.post('/wallet/list')]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('user_id')).toBeNull();
    expect(localStorage.getItem('lang')).toBe('en');
    expect(sessionStore.getState().token).toBeNull();
    expect(sessionStore.getState().loginRequest).toBeNull();

    vi.advanceTimersByTime(LOGIN_PROMPT_DELAY_MS - 1);
    expect(sessionStore.getState().loginRequest).toBeNull();
    vi.advanceTimersByTime(1);
    expect(sessionStore.getState().loginRequest).toEqual({ redirect: '/', reason: 'expired' });
  });

  it('reports an unreachable server as a network error', async () => {
    stubFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(api.get('/currency/quotation_new')).rejects.toMatchObject({
      kind: 'network',
      message: 'The server could not be reached. Check your connection and try again.',
    });
  });

  it('reports a reply that is not the envelope as a bad response', async () => {
    stubFetch(() => new Response('<html>gateway</html>', { status: 502 }));
    await expect(api.get('/health')).rejects.toMatchObject({ kind: 'bad-response', status: 502 });
    stubFetch(() => json({ code: 1 }));
    await expect(api.get('/health')).rejects.toMatchObject({ kind: 'bad-response' });
  });

  it('passes a FormData body through untouched for uploads', async () => {
    const calls = stubFetch(() => json({ type: 'ok', message: '/uploads/x.png' }));
    const form = new FormData();
    form.set('file', new Blob(['x']), 'x.png');
    await expect(api.post('/upload', form)).resolves.toBe('/uploads/x.png');
    expect(calls[0]?.init.body).toBe(form);
  });
});
