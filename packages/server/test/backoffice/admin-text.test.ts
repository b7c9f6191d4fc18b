// Free text an administrator types (a note, a reason) through the administrator routes: a note may hold
// line breaks and tabs, which are stored exactly; any other control character, and ill-formed UTF-16 (a lone
// surrogate, which no database text can hold), is refused with a translated message naming the field,
// before anything is written. Never a 500, never a partial write.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldName, translate } from '@fairex/shared';
import type { Store } from '../../src/store/index.ts';
import { signedInAdmin } from '../helper-admin.ts';
import { buildTestApp, createUser, openTestStore, removeTempDirs } from '../helper.ts';
import { moneyState } from '../wallets/wallet-helper.ts';

const USDT = 3;
const NOTE = 'first line\nsecond line\r\n\tindented';

let store: Store;
let app: FastifyInstance;
let token: string;
let userId: number;

beforeAll(async () => {
  store = await openTestStore();
  app = await buildTestApp(store);
  await app.ready();
  token = await signedInAdmin(app, store, { username: 'admin-text', role: 'admin' });
  userId = await createUser(store, { reviewStatus: 2 });
});

afterAll(async () => {
  await app?.close();
  await store?.close();
  await removeTempDirs();
});

async function post(url: string, payload: Record<string, unknown>, lang = 'en') {
  const response = await app.inject({
    method: 'POST',
    url: `/api${url}?lang=${lang}`,
    headers: { authorization: token, 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { type: string; message: unknown };
}

/** Everything these routes may write: balances and orders, and the rows of every table they touch. */
async function state(): Promise<string> {
  const { rows } = await store.query<{ counts: string }>(
    `select concat_ws(',', (select count(*) from audit_log), (select count(*) from deposits),
       (select count(*) from operator_invite_codes), (select count(*) from user_freezes)) as counts`,
  );
  return `${moneyState(app, [userId])}|${rows[0]?.counts}`;
}

// Each route with a valid body and the name of its free-text field.
const ROUTES: [url: string, body: () => Record<string, unknown>, field: string][] = [
  ['/admin/wallet/house_fund', () => ({ currency: USDT, amount: '1' }), 'note'],
  ['/admin/invite_codes', () => ({ max_uses: 1 }), 'note'],
  ['/admin/wallet/deposit', () => ({ user_id: userId, currency: USDT, amount: '1' }), 'note'],
  ['/backoffice/deposits/manual', () => ({ user_id: userId, currency_id: USDT, amount: '1' }), 'note'],
  ['/backoffice/users/freeze', () => ({ id: userId, trading: 0, withdrawals: 1 }), 'reason'],
];

describe('free text of administrator routes', () => {
  it.each(ROUTES)('%s stores a note with line breaks and tabs exactly', async (url, body, field) => {
    const reply = await post(url, { ...body(), [field]: NOTE });
    expect(reply.type, JSON.stringify(reply)).toBe('ok');
    const { rows } = await store.query<{ detail: Record<string, unknown> }>(
      'select detail from audit_log order by id desc limit 1',
    );
    expect(Object.values(rows[0]?.detail ?? {})).toContain(NOTE);
  });

  it.each(ROUTES)(
    '%s refuses a lone surrogate or a control character, naming the field',
    async (url, body, field) => {
      for (const bad of [
        '\uD800',
        'a\uDC00b',
        `note ${'\uDBFF'}`,
        'bell\u0007',
        'escape\u001b[2J',
        'del\u007f',
        'c1\u0085',
      ]) {
        const before = await state();
        for (const lang of ['en', 'zh', 'hk', 'kr', 'jp'] as const) {
          const reply = await post(url, { ...body(), [field]: bad }, lang);
          const key = /[\uD800-\uDFFF]/.test(bad)
            ? 'validation.nul_character'
            : 'validation.control_character';
          expect(reply, `${url} ${JSON.stringify(bad)}`).toEqual({
            type: 'error',
            message: translate(lang, key, { field: fieldName(lang, field) }),
          });
        }
        expect(await state()).toBe(before);
      }
    },
  );
});
