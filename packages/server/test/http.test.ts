// The request pipeline of spec 03 section 1, through app.inject() on PGlite: the envelope, JSON and form
// bodies, validation with translated messages, languages, login (999) and real-name (998) checks, and the
// error handler. Test-only routes are registered here, below /api/test.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { decimalMinor, id, ok, oneOf, optional, text } from '@fairex/shared';
import { hashToken } from '../src/auth/sessions.ts';
import { AppError } from '../src/http/app-error.ts';
import { route } from '../src/http/route.ts';
import type { Store } from '../src/store/index.ts';
import { buildTestApp, createUser, loginAs, openTestStore, removeTempDirs } from './helper.ts';
import { whenCaughtUp } from '../src/engine-runner/index.ts';

let store: Store;
let app: FastifyInstance;

const orderInput = z.object({
  currency_id: id(),
  price: decimalMinor(2, { positive: true }),
  type: oneOf([1, 2] as const),
  note: optional(text({ max: 20 })),
});

async function testRoutes(api: FastifyInstance): Promise<void> {
  route(api, {
    method: ['GET', 'POST'],
    url: '/test/order',
    input: orderInput,
    handler: ({ input }) => ok({ ...input, price: input.price.toString() }),
  });
  route(api, {
    method: 'GET',
    url: '/test/me',
    auth: 'required',
    handler: ({ user }) => ok({ id: user.id }),
  });
  route(api, {
    method: 'POST',
    url: '/test/private-order',
    auth: 'required',
    input: orderInput,
    handler: ({ user }) => ok({ id: user.id }),
  });
  route(api, {
    method: 'GET',
    url: '/test/maybe',
    auth: 'optional',
    handler: ({ user }) => ok({ id: user?.id ?? null }),
  });
  route(api, {
    method: 'GET',
    url: '/test/verified',
    auth: 'verified',
    handler: ({ user }) => ok({ id: user.id }),
  });
  route(api, {
    method: 'GET',
    url: '/test/refuse',
    handler: () => {
      throw new AppError('validation.decimal_scale', { field: 'X', scale: 4 });
    },
  });
  route(api, {
    method: 'GET',
    url: '/test/boom',
    handler: () => {
      throw new Error('secret internal detail at /srv/fairex/src/file.ts:12');
    },
  });
  api.get('/test/hand-written', { preHandler: api.requireUser }, async (request) =>
    ok({ id: request.user?.id }),
  );
}

beforeAll(async () => {
  store = await openTestStore();
  app = await buildTestApp(store, { seed: false });
  await app.register(testRoutes, { prefix: '/api' });
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await store?.close();
  await removeTempDirs();
});

function post(body: string, contentType: string | undefined, url = '/api/test/order') {
  return app.inject({
    method: 'POST',
    url,
    headers: contentType === undefined ? {} : { 'content-type': contentType },
    payload: body,
  });
}

describe('valid input', () => {
  const expected = { type: 'ok', message: { currency_id: 3, price: '1050', type: 2, note: 'hi' } };

  it('accepts a JSON body', async () => {
    const response = await post(
      JSON.stringify({ currency_id: 3, price: '10.5', type: 2, note: 'hi' }),
      'application/json',
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(expected);
  });

  it('accepts a form-encoded body the same way', async () => {
    const response = await post(
      'currency_id=3&price=10.5&type=2&note=hi',
      'application/x-www-form-urlencoded',
    );
    expect(response.json()).toEqual(expected);
  });

  it('accepts JSON with a charset and a query string merged in', async () => {
    const response = await post(
      JSON.stringify({ price: '10.50', type: '2', note: 'hi' }),
      'application/json; charset=utf-8',
      '/api/test/order?currency_id=3&lang=en&timestamp=1700000000',
    );
    expect(response.json()).toEqual(expected);
  });

  it('takes GET input from the query string', async () => {
    const response = await app.inject('/api/test/order?currency_id=3&price=10.5&type=2&note=hi');
    expect(response.json()).toEqual(expected);
  });
});

describe('bad input gets a translated error and never a 5xx', () => {
  const cases: {
    name: string;
    body: string;
    type?: string;
    url?: string;
    status: number;
    message: string;
  }[] = [
    {
      name: 'malformed JSON',
      body: '{"currency_id": 3,',
      type: 'application/json',
      status: 400,
      message: 'The request body is not valid JSON.',
    },
    {
      name: 'empty JSON body',
      body: '',
      type: 'application/json',
      status: 400,
      message: 'The request body is not valid JSON.',
    },
    {
      name: 'prototype poisoning',
      body: '{"__proto__": {"admin": true}}',
      type: 'application/json',
      status: 400,
      message: 'The request body is not valid JSON.',
    },
    {
      name: 'JSON array',
      body: '[1, 2]',
      type: 'application/json',
      status: 200,
      message: 'The request body must be JSON or form fields.',
    },
    {
      name: 'JSON string',
      body: '"currency_id=3"',
      type: 'application/json',
      status: 200,
      message: 'The request body must be JSON or form fields.',
    },
    {
      name: 'JSON null',
      body: 'null',
      type: 'application/json',
      status: 200,
      message: 'The request body must be JSON or form fields.',
    },
    {
      name: 'plain text',
      body: 'currency_id=3',
      type: 'text/plain',
      status: 415,
      message: 'Send the request body as JSON or as form fields.',
    },
    {
      name: 'XML',
      body: '<order/>',
      type: 'application/xml',
      status: 415,
      message: 'Send the request body as JSON or as form fields.',
    },
    {
      name: 'multipart without an upload route',
      body: '--x\r\n\r\n--x--',
      type: 'multipart/form-data; boundary=x',
      status: 415,
      message: 'Send the request body as JSON or as form fields.',
    },
    {
      name: 'a body without a content type',
      body: 'currency_id=3',
      type: undefined,
      status: 415,
      message: 'Send the request body as JSON or as form fields.',
    },
    {
      name: 'missing field',
      body: '{"price": "1", "type": 1}',
      type: 'application/json',
      status: 200,
      message: 'Currency is required.',
    },
    {
      name: 'wrong type (text for a number)',
      body: 'currency_id=abc&price=1&type=1',
      type: 'application/x-www-form-urlencoded',
      status: 200,
      message: 'Currency must be a whole number.',
    },
    {
      name: 'wrong type (object for a number)',
      body: '{"currency_id": {"$gt": 0}, "price": "1", "type": 1}',
      type: 'application/json',
      status: 200,
      message: 'Currency must be a whole number.',
    },
    {
      name: 'wrong type (boolean for a decimal)',
      body: '{"currency_id": 3, "price": true, "type": 1}',
      type: 'application/json',
      status: 200,
      message: 'Price must be a plain number such as 12.5.',
    },
    {
      name: 'repeated form field',
      body: 'currency_id=3&currency_id=4&price=1&type=1',
      type: 'application/x-www-form-urlencoded',
      status: 200,
      message: 'Currency must be a whole number.',
    },
    {
      name: 'id out of range',
      body: '{"currency_id": 99999999999, "price": "1", "type": 1}',
      type: 'application/json',
      status: 200,
      message: 'Currency must be a whole number from 1 to 2147483647.',
    },
    {
      name: 'unknown enum value',
      body: '{"currency_id": 3, "price": "1", "type": 3}',
      type: 'application/json',
      status: 200,
      message: 'Type must be one of: 1, 2.',
    },
    {
      name: 'exponent notation',
      body: '{"currency_id": 3, "price": "1e3", "type": 1}',
      type: 'application/json',
      status: 200,
      message: 'Price must be a plain number such as 12.5.',
    },
    {
      name: 'JSON number in exponent form',
      body: '{"currency_id": 3, "price": 1e21, "type": 1}',
      type: 'application/json',
      status: 200,
      message: 'Price must be a plain number such as 12.5.',
    },
    {
      name: 'negative amount',
      body: '{"currency_id": 3, "price": "-5", "type": 1}',
      type: 'application/json',
      status: 200,
      message: 'Price must not be negative.',
    },
    {
      name: 'zero amount',
      body: '{"currency_id": 3, "price": "0", "type": 1}',
      type: 'application/json',
      status: 200,
      message: 'Price must be greater than zero.',
    },
    {
      name: 'too many decimals',
      body: '{"currency_id": 3, "price": "1.001", "type": 1}',
      type: 'application/json',
      status: 200,
      message: 'Price allows at most 2 decimal places.',
    },
    {
      name: 'huge amount',
      body: '{"currency_id": 3, "price": "99999999999999999999", "type": 1}',
      type: 'application/json',
      status: 200,
      message: 'Price is out of range.',
    },
    {
      name: 'text too long',
      body: '{"currency_id": 3, "price": "1", "type": 1, "note": "' + 'x'.repeat(21) + '"}',
      type: 'application/json',
      status: 200,
      message: 'Note must be 1 to 20 characters long.',
    },
    {
      name: 'NUL character in text (PostgreSQL cannot store it)',
      body: '{"currency_id": 3, "price": "1", "type": 1, "note": "a\\u0000b"}',
      type: 'application/json',
      status: 200,
      message: 'Note contains a character that is not allowed.',
    },
    {
      name: 'lone surrogate in text (ill-formed UTF-16, which no database text can store)',
      body: '{"currency_id": 3, "price": "1", "type": 1, "note": "a\\ud800b"}',
      type: 'application/json',
      status: 200,
      message: 'Note contains a character that is not allowed.',
    },
    {
      name: 'NUL character in a form field the route does not know',
      body: 'currency_id=3&price=1&type=1&extra=%00',
      type: 'application/x-www-form-urlencoded',
      status: 200,
      message: 'extra contains a character that is not allowed.',
    },
    {
      name: 'oversize body',
      body: JSON.stringify({ currency_id: 3, price: '1', type: 1, note: 'x'.repeat(70_000) }),
      type: 'application/json',
      status: 413,
      message: 'The request is too large.',
    },
    {
      name: 'oversize form body',
      body: `currency_id=3&price=1&type=1&note=${'x'.repeat(70_000)}`,
      type: 'application/x-www-form-urlencoded',
      status: 413,
      message: 'The request is too large.',
    },
  ];

  it.each(cases)('$name', async ({ body, type, url, status, message }) => {
    const response = await post(body, type, url);
    expect(response.statusCode).toBe(status);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toEqual({ type: 'error', message });
  });

  it('answers a malformed URL with the envelope', async () => {
    const response = await app.inject('/api/test/order?currency_id=%E0%A4%A');
    expect(response.statusCode).toBeLessThan(500);
    expect(response.json().type).toBe('error');
    const path = await app.inject('/api/test/%E0%A4%A');
    expect(path.statusCode).toBe(400);
    expect(path.json()).toEqual({ type: 'error', message: 'The request could not be understood.' });
  });

  it('answers an unknown /api path with a translated 404', async () => {
    const response = await app.inject({ method: 'POST', url: '/api/no/such/call?lang=zh' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ type: 'error', message: '该地址不存在。' });
  });

  it('answers a wrong method with the 404 envelope', async () => {
    const response = await app.inject({ method: 'DELETE', url: '/api/test/order' });
    expect(response.statusCode).toBe(404);
    expect(response.json().type).toBe('error');
  });
});

describe('errors from handlers', () => {
  it('answers an AppError with its translated message and status 200', async () => {
    const response = await app.inject('/api/test/refuse?lang=zh');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ type: 'error', message: 'X最多允许 4 位小数。' });
  });

  it('hides an internal fault behind a generic message', async () => {
    const response = await app.inject('/api/test/boom?lang=jp');
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      type: 'error',
      message: 'サーバー側で問題が発生しました。しばらくしてから再度お試しください。',
    });
    expect(response.body).not.toMatch(/secret|srv|file\.ts|at /);
  });
});

describe('request language', () => {
  const body = JSON.stringify({ price: '1', type: 1 });
  const send = (url: string, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json', ...headers },
      payload: body,
    });

  it.each([
    ['/api/test/order', {}, 'Currency is required.'],
    ['/api/test/order?lang=zh', {}, '币种不能为空。'],
    ['/api/test/order?lang=hk', {}, '幣種不能為空。'],
    ['/api/test/order?lang=kr', {}, '통화을(를) 입력해 주세요.'],
    ['/api/test/order?lang=jp', {}, '通貨を入力してください。'],
    ['/api/test/order', { lang: 'hk' }, '幣種不能為空。'],
    ['/api/test/order?lang=jp', { lang: 'zh' }, '通貨を入力してください。'],
    ['/api/test/order?lang=fr', {}, 'Currency is required.'],
    ['/api/test/order?lang=zh-TW', {}, '幣種不能為空。'],
    ['/api/test/order?lang=zh&lang=jp', {}, 'Currency is required.'],
  ])('%s %j', async (url, headers, message) => {
    expect((await send(url, headers)).json()).toEqual({ type: 'error', message });
  });

  it('translates transport errors too', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/test/order?lang=kr',
      headers: { 'content-type': 'application/json' },
      payload: '{',
    });
    expect(response.json()).toEqual({ type: 'error', message: '요청 본문이 올바른 JSON이 아닙니다.' });
  });
});

describe('login (999) and real-name (998)', () => {
  let userId: number;
  let token: string;
  const me = (authorization?: string, url = '/api/test/me') =>
    app.inject({ method: 'GET', url, headers: authorization === undefined ? {} : { authorization } });
  const notLoggedIn = {
    type: '999',
    message: 'You are not logged in or your login has expired. Please log in again.',
  };

  beforeAll(async () => {
    userId = await createUser(store);
    token = await loginAs(store, userId);
  });

  it('accepts the raw token and "Bearer <token>"', async () => {
    expect((await me(token)).json()).toEqual({ type: 'ok', message: { id: userId } });
    expect((await me(`Bearer ${token}`)).json()).toEqual({ type: 'ok', message: { id: userId } });
    expect((await me(`bearer   ${token}`)).json()).toEqual({ type: 'ok', message: { id: userId } });
  });

  it.each([
    ['no header', undefined],
    ['an empty header', ''],
    ['the text null', 'null'],
    ['the text undefined', 'undefined'],
    ['a bare user id', '1'],
    ['an unknown token', 'A'.repeat(43)],
    ['Bearer alone', 'Bearer'],
    ['a token with odd characters', "x' or '1'='1"],
    ['a very long header', 'A'.repeat(5000)],
  ])('answers 999 for %s', async (_name, authorization) => {
    const response = await me(authorization);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(notLoggedIn);
  });

  it('answers 999 for an expired session', async () => {
    const expired = await loginAs(store, userId);
    await store.query(`update sessions set expires_at = now() - interval '1 second' where token_hash = $1`, [
      hashToken(expired),
    ]);
    expect((await me(expired)).json()).toEqual(notLoggedIn);
  });

  it('answers 999 for a revoked session, at once when revoked through the app', async () => {
    const revoked = await loginAs(store, userId);
    expect((await me(revoked)).json().type).toBe('ok');
    await app.sessions.revoke(hashToken(revoked));
    expect((await me(revoked)).json()).toEqual(notLoggedIn);
  });

  it('answers 999 for a session of another kind', async () => {
    const adminToken = await loginAs(store, userId, 'admin');
    expect((await me(adminToken)).json()).toEqual(notLoggedIn);
  });

  it('checks the login before the input', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/test/private-order',
      headers: { 'content-type': 'application/json' },
      payload: '{"currency_id": "x"}',
    });
    expect(response.json()).toEqual(notLoggedIn);
  });

  it('translates the 999 message', async () => {
    expect((await me(undefined, '/api/test/me?lang=zh')).json()).toEqual({
      type: '999',
      message: '您尚未登录或登录已过期，请重新登录。',
    });
  });

  it('gives the user to optional routes and null without a token', async () => {
    expect((await me(token, '/api/test/maybe')).json()).toEqual({ type: 'ok', message: { id: userId } });
    expect((await me('junk', '/api/test/maybe')).json()).toEqual({ type: 'ok', message: { id: null } });
  });

  it('answers 998 until real-name verification is approved', async () => {
    expect((await me(token, '/api/test/verified')).json()).toEqual({
      type: '998',
      message: 'Please complete real-name verification first.',
    });
    const verifiedUser = await createUser(store, { reviewStatus: 2 });
    const verifiedToken = await loginAs(store, verifiedUser);
    expect((await me(verifiedToken, '/api/test/verified')).json()).toEqual({
      type: 'ok',
      message: { id: verifiedUser },
    });
    expect((await me(undefined, '/api/test/verified')).json()).toEqual(notLoggedIn);
  });

  it('protects hand-written routes with the requireUser preHandler', async () => {
    expect((await me(undefined, '/api/test/hand-written')).json()).toEqual(notLoggedIn);
    expect((await me(token, '/api/test/hand-written')).json()).toEqual({
      type: 'ok',
      message: { id: userId },
    });
  });
});

describe('GET /api/health', () => {
  it('reports the store, uptime and how far the projector is behind the journal', async () => {
    await whenCaughtUp(app.runner);
    const { lastCommittedSeq } = app.runner.stats();
    const response = await app.inject('/api/health');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      type: 'ok',
      message: {
        status: 'ok',
        store: store.kind,
        uptime_seconds: expect.any(Number),
        committed_seq: lastCommittedSeq,
        projected_seq: lastCommittedSeq,
        projector_lag_commands: 0,
        projector_lag_ms: 0,
      },
    });
  });

  it('answers 503 with a translated envelope when the store is unreachable', async () => {
    const broken = await openTestStore();
    // Without the engine: a runner on a store closed under it would stop (crash-only), which is not the
    // behaviour under test here.
    const brokenApp = await buildTestApp(broken, { seed: false, engine: false });
    await brokenApp.ready();
    await broken.close();
    const response = await brokenApp.inject('/api/health?lang=hk');
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ type: 'error', message: '服務暫時無法使用，請稍後再試。' });
    await brokenApp.close();
  });
});
