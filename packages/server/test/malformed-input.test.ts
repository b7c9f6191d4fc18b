// Every /api route, sent malformed input (bad input gets a clear error, never a 500): random
// bodies and query strings built from the specifications' field names and hostile values, as JSON, as a
// form, as a query string and as broken or unexpected bodies, from a visitor, a user, an administrator and
// a caller with a bad token. The routes are read from the app itself, so a new route is covered the day it
// is added. The app holds real rows first (funds, orders, a trade, a transfer, a custody callback) so that
// the lists have something to serialise. A request that is refused (any answer but `type: "ok"`) must leave
// every balance and open order exactly as it was: no partial write. Seeded: a failure names its seed and
// shrinks to a small request. Then every administrator route (/api/admin/*, /api/backoffice/*) meets, from
// a signed-in administrator, bodies whose ids are valid and whose every text field holds hostile text (lone
// surrogates, line breaks, tabs, control characters, overlong text), so the text reaches the handlers: no
// 500, and a refusal leaves balances, orders and the administrators' tables as they were.
import type { FastifyInstance } from 'fastify';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../src/store/index.ts';
import { signedInAdmin } from './helper-admin.ts';
import { buildTestApp, createUser, loginAs, openTestStore, removeTempDirs } from './helper.ts';
import { expectLedgerBalanced, moneyState } from './wallets/wallet-helper.ts';

const SEED = 20_261_121;
/** Probes per route, method, encoding and logged-in caller. */
const RUNS_WITH_SESSION = 3;

/** Routes whose success would end the sessions the test uses; their refusals are covered by their own tests. */
const SESSION_ENDING = /\/logout$|\/safe\/password$|\/admins\/disable$|reset_second_factor$/;

/** Field names of the specifications' calls (and a few that no call has). */
// prettier-ignore
const FIELDS = [
  'id', 'legal_id', 'currency_id', 'currency', 'price', 'num', 'number', 'amount', 'mode', 'type', 'status',
  'page', 'limit', 'symbol', 'period', 'from', 'to', 'account', 'email', 'password', 're_password', 'code',
  'address', 'address_id', 'user_id', 'lang', 'name', 'seconds', 'match_id', 'note', 'memo', 'chain',
  'category_id', 'title', 'content', 'is_display', 'reason', 'role', 'username', 'front_pic', 'reverse_pic',
  'hand_pic', 'card_id', 'area_code', 'extension_code', 'old_password', 'new_password', 'secret', 'tx_id',
  'timestamp', 'nonce', 'sign', 'body', 'wallet', 'from_field', 'to_field', 'outcome', 'scale', 'tick',
  'lot', 'min', 'max', 'q', '__proto__', 'constructor',
] as const;

/** Values that have broken servers: edge numbers, number-like text, injection, control characters. */
// prettier-ignore
const HOSTILE: readonly unknown[] = [
  '', ' ', '0', '-1', '1', '3', '1e5', '1E-3', 'NaN', 'Infinity', '-0', '0.0000000000001', '9'.repeat(60),
  '１２', ' 1 ', '0x10', '1,000', '1.', '.5', '<script>alert(1)</script>', '\u0000', 'a\u0000b', '😀',
  'a'.repeat(5000), "' or 1=1 --", '%', '../../etc/passwd', 'BTC/USDT', 'BTC', 'change', 'lever', 'en',
  'test@example.com', 'not-an-email', '2026-13-45', 0, -1, 1, 2, 1.5, -0.5, 2 ** 53 + 1, 1e308, -1e308,
  true, false, null, [], [1, 2], {}, { a: 1 }, [{}],
];

/** Bodies that are not what their content type says. */
const BROKEN_BODIES = ['{', '[]', 'null', '1', '"x"', '{"a":', '\u0000', '{"__proto__":{"x":1}}'];

type Caller = 'visitor' | 'user' | 'admin' | 'bad token';
const CALLERS: readonly Caller[] = ['user', 'admin', 'visitor', 'bad token'];

/** How a probe's fields travel; every route meets every one of these from every caller. */
const ENCODINGS = [
  'json',
  'form',
  'query',
  'broken json',
  'text/plain',
  'application/xml',
  'multipart/form-data',
  'multipart/form-data; boundary=x',
] as const;
type Encoding = (typeof ENCODINGS)[number];

interface Probe {
  fields: Record<string, unknown>;
  broken: string;
  lang: string | undefined;
}

const value = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE) },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double() },
);

const probe: fc.Arbitrary<Probe> = fc.record({
  fields: fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 5 }),
  broken: fc.constantFrom(...BROKEN_BODIES),
  lang: fc.option(fc.constantFrom('zh', 'hk', 'en', 'kr', 'jp', 'xx'), { nil: undefined }),
});

function formText(fields: Record<string, unknown>): string {
  return Object.entries(fields)
    .map(([key, field]) => {
      const text = typeof field === 'object' ? JSON.stringify(field) : String(field);
      return `${encodeURIComponent(key)}=${encodeURIComponent(text)}`;
    })
    .join('&');
}

/** The app's routes, from Fastify's own route tree (one line per path, children indented under parents). */
function routesOf(app: FastifyInstance): { path: string; methods: string[] }[] {
  const routes: { path: string; methods: string[] }[] = [];
  const parents: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+) \(([^)]*)\)/.exec(line);
    if (!match) continue;
    const depth = [...(match[1] ?? '')].length / 4;
    const path = (depth > 0 ? (parents[depth - 1] ?? '') : '') + (match[2] ?? '');
    parents[depth] = path;
    parents.length = depth + 1;
    routes.push({ path, methods: (match[3] ?? '').split(', ').filter((method) => method !== 'HEAD') });
  }
  return routes;
}

let store: Store;
let users: number[] = [];
let app: FastifyInstance;
const tokens: Record<Caller, string | undefined> = {
  visitor: undefined,
  user: undefined,
  admin: undefined,
  'bad token': 'not-a-session-token',
};

async function post(url: string, token: string | undefined, payload: Record<string, unknown>) {
  const response = await app.inject({
    method: 'POST',
    url: `/api${url}?lang=en`,
    headers: token === undefined ? {} : { authorization: token },
    payload,
  });
  return response.json() as { type: string };
}

beforeAll(async () => {
  store = await openTestStore();
  app = await buildTestApp(store, { env: { CUSTODY_API_KEY: 'malformed-input-test-key' } });
  await app.ready();
  const userId = await createUser(store, { reviewStatus: 2 });
  const otherId = await createUser(store, { reviewStatus: 2 });
  users = [userId, otherId];
  tokens.user = await loginAs(store, userId);
  const otherToken = await loginAs(store, otherId);
  tokens.admin = await signedInAdmin(app, store, { username: 'malformed-input-admin', role: 'admin' });
  for (const owner of [userId, otherId]) {
    for (const [currencyId, amount] of [
      [3, 10_000_000_000n],
      [1, 1_000_000_000n],
    ] as const) {
      const outcome = await app.runner.submit({ type: 'deposit', userId: owner, currencyId, amount });
      expect(outcome.code).toBe(0);
    }
  }
  const order = { legal_id: 3, currency_id: 1, num: '0.01', mode: 2 };
  expect((await post('/transaction/in', tokens.user, { ...order, price: '30000' })).type).toBe('ok');
  expect((await post('/transaction/out', otherToken, { ...order, price: '30000' })).type).toBe('ok');
  expect((await post('/transaction/out', otherToken, { ...order, price: '31000' })).type).toBe('ok');
  const transfer = { currency_id: 3, number: '10', from_field: 'change', to_field: 'lever' };
  expect((await post('/wallet/change', tokens.user, transfer)).type).toBe('ok');
  // An unsigned callback leaves a row in the custody log.
  await app.inject({ method: 'POST', url: '/api/custody/callback', payload: { body: '{}' } });
});

afterAll(async () => {
  await app?.close();
  await store?.close();
  await removeTempDirs();
});

async function send(method: string, path: string, caller: Caller, encoding: Encoding, input: Probe) {
  const headers: Record<string, string> = {};
  const token = tokens[caller];
  if (token !== undefined) headers.authorization = token;
  if (input.lang !== undefined) headers.lang = input.lang;
  let url = path;
  let payload: string | undefined;
  if (method === 'GET' || encoding === 'query') {
    url += `?${formText(input.fields)}`;
  } else if (encoding === 'json') {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(input.fields);
  } else if (encoding === 'form') {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    payload = formText(input.fields);
  } else if (encoding === 'broken json') {
    headers['content-type'] = 'application/json';
    payload = input.broken;
  } else {
    headers['content-type'] = encoding;
    payload = formText(input.fields);
  }
  const before = moneyState(app, users);
  const response = await app.inject({ method: method as 'GET' | 'POST', url, headers, payload });
  const what = `${method} ${url} ${encoding} -> ${response.body.slice(0, 200)}`;
  expect(response.statusCode, what).toBeLessThan(500);
  if (!response.body.startsWith('{"type":"ok"')) expect(moneyState(app, users), what).toBe(before);
}

/** Text that has broken administrator routes: ill-formed UTF-16, line breaks, tabs, control characters. */
// prettier-ignore
const HOSTILE_TEXT = [
  'lone \uD800 high', 'two\nlines\tand a tab\r\n', 'bell\u0007 escape\u001b c1\u0085 del\u007f \u2028 😀',
  'x'.repeat(600),
];

/** Every text field of the administrator routes' inputs, at top level and inside the content's languages. */
function textFields(text: string): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  // prettier-ignore
  for (const name of [
    'note', 'reason', 'name', 'username', 'password', 'key', 'value', 'q', 'tx_id', 'recipient', 'admin',
    'action', 'target_type', 'target_id', 'code', 'title', 'content', 'summary', 'link_url',
  ]) fields[name] = text;
  fields.names = { en: text, zh: text };
  fields.descriptions = { en: text };
  fields.translations = { en: { title: text, content: text, summary: text } };
  return fields;
}

/** The rows of the tables the administrator routes write (the audit log, which records attempts, aside). */
async function adminTablesState(): Promise<string> {
  // prettier-ignore
  const tables = [
    'admins', 'operator_invite_codes', 'user_freezes', 'deposits', 'withdrawals', 'currencies', 'markets',
    'wallet_chains', 'news_categories', 'news_items', 'news_translations', 'users', 'real_name_submissions',
    'market_maker_settings',
  ];
  const digest = (table: string) =>
    `(select md5(coalesce(string_agg(row::text, '|' order by row::text), '')) from ${table} as row)`;
  const { rows } = await store.query<{ state: string }>(
    `select concat_ws(',', ${tables.map(digest).join(', ')}) as state`,
  );
  return rows[0]?.state ?? '';
}

/** The administrator tables as the last request left them. */
let adminTables = '';

async function sendAdminText(method: string, path: string, text: string, withIds: boolean): Promise<void> {
  const fields: Record<string, unknown> = {
    ...(withIds
      ? // prettier-ignore
        { id: users[0], user_id: users[0], currency: 3, currency_id: 3, amount: '1', max_uses: 1, trading: 0,
          withdrawals: 0, chain_type: 0, category_id: 1, page: 1 }
      : {}),
    ...textFields(text),
  };
  const headers: Record<string, string> = { authorization: tokens.admin as string };
  let url = `${path}?lang=en`;
  let payload: string | undefined;
  if (method === 'GET') {
    // A URL cannot carry a lone surrogate; its UTF-8 bytes would be invalid, so send those bytes.
    const encode = (part: string) => (part.isWellFormed() ? encodeURIComponent(part) : '%ED%A0%80');
    url += `&${Object.entries(fields)
      .filter(([, field]) => typeof field !== 'object')
      .map(([key, field]) => `${key}=${encode(String(field))}`)
      .join('&')}`;
  } else {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(fields);
  }
  const before = moneyState(app, users);
  const response = await app.inject({ method: method as 'GET' | 'POST', url, headers, payload });
  const what = `${method} ${path} ${JSON.stringify(text.slice(0, 40))} -> ${response.body.slice(0, 200)}`;
  expect(response.statusCode, what).toBeLessThan(500);
  const tablesAfter = await adminTablesState();
  if (!response.body.startsWith('{"type":"ok"')) {
    expect(moneyState(app, users), what).toBe(before);
    expect(tablesAfter, what).toBe(adminTables);
  }
  adminTables = tablesAfter;
}

describe('every route, sent malformed input', () => {
  it('finds the routes', () => {
    const paths = routesOf(app).map((route) => route.path);
    expect(paths).toContain('/api/transaction/in');
    expect(paths).toContain('/api/wallet/out_list');
    expect(paths).toContain('/api/backoffice/withdrawals/approve');
    expect(paths.length).toBeGreaterThan(100);
  });

  it('answers every request without a server error and leaves the ledger balanced', async () => {
    const routes = routesOf(app).filter((route) => !SESSION_ENDING.test(route.path));
    let seed = SEED;
    for (const route of routes) {
      for (const method of route.methods) {
        for (const caller of CALLERS) {
          for (const encoding of ENCODINGS) {
            seed += 1; // each combination gets probes of its own
            // A visitor or a bad token meets the login check first, which one probe shows.
            const numRuns = caller === 'user' || caller === 'admin' ? RUNS_WITH_SESSION : 1;
            await fc.assert(
              fc.asyncProperty(probe, (input) => send(method, route.path, caller, encoding, input)),
              { seed, numRuns, endOnFailure: true },
            );
          }
        }
      }
    }
    expectLedgerBalanced(app);
  });

  it('answers every administrator route holding hostile text without a server error or a partial write', async () => {
    const routes = routesOf(app).filter(
      (route) => /^\/api\/(admin|backoffice)\//.test(route.path) && !SESSION_ENDING.test(route.path),
    );
    expect(routes.length).toBeGreaterThan(50);
    adminTables = await adminTablesState();
    for (const route of routes) {
      for (const method of route.methods) {
        for (const text of HOSTILE_TEXT) await sendAdminText(method, route.path, text, true);
        await sendAdminText(method, route.path, HOSTILE_TEXT[1] as string, false);
      }
    }
    expectLedgerBalanced(app);
  });
});
