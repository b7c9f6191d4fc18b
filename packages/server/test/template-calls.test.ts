// Every call the specifications' route tables list answers through the envelope: built calls answer what
// they answer, calls of products not built yet answer HTTP 200 {type:'error'} with a translated "not
// available yet", and none answers 404 or 500, logged in or not. The list is the specifications' own
// (spec 01 section 7 and spec 02 section 7), copied here as data.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '@fairex/shared';
import type { Store } from '../src/store/index.ts';
import { buildTestApp, createUser, loginAs, openTestStore, removeTempDirs } from './helper.ts';
import { fundTraders, restingBid, trade } from './market/helpers.ts';

type Call = [method: 'GET' | 'POST', path: string];

/** Spec 01 section 7, in its order. */
const SPEC_01_CALLS: Call[] = [
  ['GET', '/currency/quotation_new'],
  ['POST', '/quotation'],
  ['POST', '/quotation_new'],
  ['POST', '/user/login'],
  ['POST', '/user/check'],
  ['POST', '/user/register'],
  ['POST', '/sms_send'],
  ['POST', '/sms_mail'],
  ['POST', '/user/check_email'],
  ['POST', '/user/check_mobile'],
  ['POST', '/news/list'],
  ['GET', '/currency/new_timeshar'],
  ['GET', '/currency/new_tradehistory'],
  ['GET', '/currency/detail'],
  ['POST', '/transaction/deal'],
  ['POST', '/transaction_in'],
  ['POST', '/transaction_out'],
  ['POST', '/transaction_all'],
  ['POST', '/transaction_complete'],
  ['POST', '/transaction_del'],
  ['POST', '/transaction/in'],
  ['POST', '/transaction/out'],
  ['POST', '/lever/deal'],
  ['POST', '/lever/submit'],
  ['POST', '/lever/my_trade'],
  ['POST', '/lever/close'],
  ['POST', '/lever/cancel'],
  ['POST', '/lever/setstop'],
  ['POST', '/lever/batch_close'],
  ['GET', '/user/info'],
  ['GET', '/user/center'],
  ['POST', '/upload'],
  ['POST', '/user/real_name'],
  ['POST', '/wallet/get_in_address'],
  ['POST', '/wallet/legal_log'],
  ['POST', '/wallet/get_info'],
  ['POST', '/wallet/out_list'],
  ['POST', '/wallet/out'],
  ['GET', '/wallet/list'],
  ['POST', '/news/detail'],
  ['POST', '/detail'],
];

/** Spec 02 section 7, in its order. */
const SPEC_02_CALLS: Call[] = [
  ['POST', '/wallet/list'],
  ['GET', '/wallet/currencylist'],
  ['POST', '/wallet/detail'],
  ['POST', '/wallet/change_list'],
  ['POST', '/wallet/change'],
  ['POST', '/account/list'],
  ['POST', '/wallet/flashAgainstList'],
  ['POST', '/wallet/myFlashAgainstList'],
  ['POST', '/wallet/flashAgainst'],
  ['POST', '/lever/my_trade'],
  ['POST', '/lever/close'],
  ['POST', '/lever/cancel'],
  ['POST', '/wallet/hzhistory'],
  ['POST', '/wallet/legal_log'],
  ['GET', '/acceptor/my_deal'],
  ['POST', '/news/detail'],
  ['POST', '/news/list'],
  ['POST', '/detail'],
  ['POST', '/sms_send'],
  ['POST', '/sms_mail'],
  ['POST', '/user/check_mobile'],
  ['POST', '/user/check_email'],
  ['POST', '/user/forget'],
  ['POST', '/wallet/get_address'],
  ['POST', '/wallet/addaddress'],
  ['POST', '/wallet/deladdress'],
  ['POST', '/safe/email'],
  ['GET', '/microtrade/seconds'],
  ['GET', '/microtrade/payable_currencies'],
  ['POST', '/microtrade/submit'],
  ['GET', '/microtrade/lists'],
  ['GET', '/currency/new_timeshar'],
  ['GET', '/currency/quotation_new'],
  ['POST', '/currency/quotation_new'],
  ['GET', '/iepn'],
  ['POST', '/ico/balance'],
  ['POST', '/ico/list'],
  ['POST', '/ico/buy'],
  ['POST', '/miner/balance'],
  ['POST', '/miner/list'],
  ['POST', '/miner/record'],
  ['POST', '/miner/buy'],
  ['POST', '/miner/info'],
  ['POST', '/miner/earnings'],
  ['POST', '/miner/extract'],
  ['POST', '/miner/extract_record'],
  ['GET', '/defi/total'],
  ['POST', '/defi/balance'],
  ['POST', '/defi/buy'],
  ['POST', '/defi/list'],
  ['POST', '/defi/record'],
];

/**
 * Calls of products that are not built: leveraged trading (all but the trading page's read, /lever/deal),
 * ICO, cloud mining, defi staking and the IEPN page (the acceptor list is P2P's, docs/p2p.md).
 */
const NOT_BUILT_PATH = /^\/(?:lever\/(?!deal$)|ico\/|miner\/|defi\/|iepn$)/;

let store: Store;
let app: FastifyInstance;
let token: string;

beforeAll(async () => {
  store = await openTestStore();
  app = await buildTestApp(store);
  await app.ready();
  token = await loginAs(store, await createUser(store));
  await fundTraders(app);
  await trade(app, 6_700_000, 3);
  await restingBid(app, 6_600_000, 7);
});

afterAll(async () => {
  await app.close();
  await store?.close();
  await removeTempDirs();
});

const headerSets = (): Record<string, string>[] => [{}, { authorization: token }];

async function call([method, path]: Call, headers: Record<string, string> = {}, lang = 'en') {
  const response = await app.inject({
    method,
    url: `/api${path}?lang=${lang}`,
    headers,
    ...(method === 'POST' ? { payload: {} } : {}),
  });
  return { status: response.statusCode, body: response.json() as { type?: string; message?: unknown } };
}

const ALL_CALLS = [...new Map([...SPEC_01_CALLS, ...SPEC_02_CALLS].map((c) => [c.join(' '), c])).values()];
const NOT_BUILT = ALL_CALLS.filter(([, path]) => NOT_BUILT_PATH.test(path));

describe("the specifications' calls", () => {
  const calls = ALL_CALLS;

  it('name 23 calls of products not built', () => {
    expect(NOT_BUILT).toHaveLength(23);
  });

  it.each(calls)('%s %s answers through the envelope, logged out and logged in', async (method, path) => {
    for (const headers of headerSets()) {
      const { status, body } = await call([method, path], headers);
      expect({ method, path, status }).toEqual({ method, path, status: 200 });
      expect(body).toHaveProperty(path === '/currency/new_timeshar' ? 'code' : 'type');
    }
  });

  it.each(NOT_BUILT)(
    '%s %s says, in the request language, that it is not available yet',
    async (method, path) => {
      for (const lang of ['en', 'zh', 'hk', 'kr', 'jp'] as const) {
        for (const headers of headerSets()) {
          expect((await call([method, path], headers, lang)).body).toEqual({
            type: 'error',
            message: translate(lang, 'common.not_available'),
          });
        }
      }
    },
  );
});

describe('the trading pages of template-era clients', () => {
  it('read the book and the last price from /lever/deal, with the leverage fields honestly empty', async () => {
    for (const [headers, lever] of [
      [{}, null],
      [{ authorization: token }, '0.000000'],
    ] as const) {
      const { body } = await app.inject({
        method: 'POST',
        url: '/api/lever/deal',
        headers,
        payload: { legal_id: 3, currency_id: 1 },
      });
      expect(body && JSON.parse(body)).toEqual({
        type: 'ok',
        message: {
          lever_available: false,
          lever_transaction: { in: [['66000.00', '0.0007']], out: [] },
          last_price: '67000.00',
          // No price sample was recorded in this app: no mark and no index are claimed.
          mark_price: null,
          index_price: null,
          ExRAte: null,
          multiple: { muit: [], share: [] },
          lever_share_limit: { min: 0, max: 0 },
          my_transaction: [],
          user_lever: lever,
          all_levers: lever === null ? null : '0.00000000',
          legal_name: 'USDT',
          currency_name: 'BTC',
          symbol: 'BTC/USDT',
        },
      });
    }
    const unknown = await call(['POST', '/lever/deal'], {}, 'en');
    expect(unknown.body.type).toBe('error');
  });

  it('see every quotation row say that seconds trading is not open on it', async () => {
    for (const method of ['GET', 'POST'] as const) {
      const { body } = await call([method, '/currency/quotation_new']);
      const rows = (body.message as { quotation: Record<string, unknown>[] }[]).flatMap(
        (group) => group.quotation,
      );
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect(row.open_microtrade).toBe(0);
    }
  });
});
