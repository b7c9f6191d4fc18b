// P2P trade on a real app (PGlite): a user meets the thresholds, applies, is approved in the back office
// (is_seller and the `seller` push follow), keeps payment methods under the real name, posts a sell ad;
// buyers take it, chat with an image, mark paid, the seller releases with the second factor; an order times
// out unpaid by the scheduler's tick; one is appealed and decided by an arbiter with a fresh code, with the
// full evidence log. Access: nobody but the two parties and an arbiter reads an order's chat, images or
// payment details. Bad input: a translated refusal that changes nothing, never a 500.
import { Secret } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { translate } from '@fairex/shared';
import type {
  P2pAd,
  P2pAdminOrder,
  P2pConfig,
  P2pMerchantStats,
  P2pMessage,
  P2pOrder,
  P2pOrderFeedback,
  P2pPaymentMethod,
} from '@fairex/shared';
import { rebuildExchangeProjections } from '../../src/exchange-runner.ts';
import { P2P_TABLES } from '../../src/p2p/projection.ts';
import { buildTestApp, openTestStore, removeTempDirs, tempDir } from '../helper.ts';
import type { BackofficeTestApp, Reply, TestAdmin, TestUser } from '../backoffice/helpers.ts';
import {
  authenticatorCode,
  call,
  expectOk,
  fund,
  newAdmin,
  newUser,
  photo,
  submitRealNameFor,
} from '../backoffice/helpers.ts';

const USDT = 3;
let test: BackofficeTestApp;
let admin: TestAdmin;
let merchant: TestUser;
let buyer: TestUser;
let stranger: TestUser;
const merchantSecret = new Secret({ size: 20 }).base32;
const pushes: { userId: number; event: string; payload: unknown }[] = [];
let sellMethod: P2pPaymentMethod;
let ad: P2pAd;

async function verifiedUser(name: string): Promise<TestUser> {
  const user = await newUser(test.store);
  const submission = await submitRealNameFor(test, user, name);
  expectOk(
    await call(test.app, 'POST', '/backoffice/real_name/approve', { id: submission }, { token: admin.token }),
  );
  return user;
}

async function upload(token: string, data: Buffer): Promise<string> {
  const boundary = `----p2p${Math.random().toString(16).slice(2)}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="proof.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const response = await test.app.inject({
    method: 'POST',
    url: '/api/p2p/upload?lang=en',
    headers: { authorization: token, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
  return expectOk<string>(response.json() as Reply);
}

const as = (user: TestUser, lang = 'en') => ({ token: user.token, lang });

/** Every row a refused call could have changed, as one comparable value. */
async function state(): Promise<string> {
  const tables = [
    'p2p_applications',
    'p2p_payment_methods',
    'p2p_messages',
    'p2p_appeals',
    'p2p_decisions',
    'p2p_orders',
    'p2p_order_steps',
  ];
  const parts = await Promise.all(
    tables.map((table) => test.store.query(`select * from ${table} order by 1`)),
  );
  return JSON.stringify(
    [parts.map((part) => part.rows), test.app.engine.p2p.escrow().orders],
    (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value),
  );
}

beforeAll(async () => {
  // The command clock reads the global Date on each call, so a test can move it with fake timers.
  const store = await openTestStore();
  const dataDir = await tempDir('fairex-p2p-');
  const app = await buildTestApp(store, {
    sessionCacheMs: 0,
    clock: () => Date.now(),
    env: { DATA_DIR: dataDir, INVITE_CODE_REQUIRED: 'false' },
  });
  await app.ready();
  test = {
    app,
    store,
    dataDir,
    close: async () => {
      await app.close();
      await store.close();
    },
  };
  admin = await newAdmin(test, 'admin');
  const realtime = test.app.realtime as {
    toUser: (userId: number, event: string, payload: unknown) => void;
    mayReachUser: (userId: number) => boolean;
  };
  realtime.mayReachUser = () => true;
  const original = realtime.toUser.bind(realtime);
  realtime.toUser = (id, event, payload) => {
    pushes.push({ userId: id, event, payload });
    original(id, event, payload);
  };
  merchant = await verifiedUser('Wang Fang');
  buyer = await verifiedUser('Li Lei');
  stranger = await verifiedUser('Zhang Wei');
  await test.store.query(`update users set totp_secret = $2 where id = $1`, [merchant.id, merchantSecret]);
  await fund(test.app, merchant.id, USDT, '10000');
}, 120_000);

afterAll(async () => {
  vi.useRealTimers();
  await test?.close();
  await removeTempDirs();
});

describe('becoming a merchant', () => {
  it('shows the thresholds and refuses an application until they are met', async () => {
    const status = expectOk<{ can_apply: boolean; requirements: { key: string; met: boolean }[] }>(
      await call(test.app, 'GET', '/p2p/merchant/status', {}, as(merchant)),
    );
    expect(status.requirements.find((r) => r.key === 'accountAge')?.met).toBe(false);
    expect(status.can_apply).toBe(false);
    const refused = await call(
      test.app,
      'POST',
      '/p2p/merchant/apply',
      { nickname: 'Fang' },
      as(merchant, 'zh'),
    );
    expect(refused).toEqual({ type: 'error', message: translate('zh', 'p2p.requirements_not_met') });
  });

  it('is approved in the back office: is_seller, the seller push and an audit entry', async () => {
    await test.store.query(`update users set created_at = now() - interval '30 days' where id = $1`, [
      merchant.id,
    ]);
    const status = expectOk<{ application: { id: number; status: string } }>(
      await call(
        test.app,
        'POST',
        '/p2p/merchant/apply',
        { nickname: 'Fang OTC', note: 'bank desk' },
        as(merchant),
      ),
    );
    expect(status.application.status).toBe('pending');
    const list = expectOk<{ data: { id: number; nickname: string }[] }>(
      await call(
        test.app,
        'GET',
        '/backoffice/p2p/applications',
        { status: 'pending' },
        { token: admin.token },
      ),
    );
    expect(list.data.map((row) => row.nickname)).toContain('Fang OTC');
    expectOk(
      await call(
        test.app,
        'POST',
        '/backoffice/p2p/applications/review',
        { id: status.application.id, decision: 'approve', acceptor: 1 },
        { token: admin.token },
      ),
    );
    expect(pushes).toContainEqual({
      userId: merchant.id,
      event: 'seller',
      payload: { type: 'seller', is_seller: 1 },
    });
    const { rows } = await test.store.query<{ is_seller: boolean }>(
      'select is_seller from users where id = $1',
      [merchant.id],
    );
    expect(rows[0]?.is_seller).toBe(true);
    const { rows: audit } = await test.store.query<{ action: string }>(
      `select action from audit_log where action = 'p2p.merchant_approved'`,
    );
    expect(audit).toHaveLength(1);
  });

  it('keeps payment methods only under the verified real name', async () => {
    const wrong = await call(
      test.app,
      'POST',
      '/p2p/methods/add',
      { method: 'bank', holder_name: 'Someone Else', account: '6222020202020202', bank_name: 'ICBC' },
      as(merchant),
    );
    expect(wrong).toEqual({ type: 'error', message: translate('en', 'p2p.holder_mismatch') });
    sellMethod = expectOk<P2pPaymentMethod>(
      await call(
        test.app,
        'POST',
        '/p2p/methods/add',
        { method: 'bank', holder_name: 'Wang Fang', account: '6222020202020202', bank_name: 'ICBC' },
        as(merchant),
      ),
    );
    expect(sellMethod).toMatchObject({ method: 'bank', holder_name: 'Wang Fang', active: true });
  });

  it('posts a sell ad whose total is escrowed at once', async () => {
    expectOk(
      await call(
        test.app,
        'POST',
        '/backoffice/p2p/reference',
        { currency_id: USDT, fiat: 'CNY', price: '7.20' },
        {
          token: admin.token,
        },
      ),
    );
    ad = expectOk<P2pAd>(
      await call(
        test.app,
        'POST',
        '/p2p/ads/create',
        {
          side: 'sell',
          currency_id: USDT,
          fiat: 'CNY',
          price_type: 'floating',
          float_percent: '1.5',
          total: '1000',
          min_fiat: '100',
          max_fiat: '5000',
          method_ids: [sellMethod.id],
          terms: 'Bank transfer only.',
        },
        as(merchant),
      ),
    );
    // 7.20 x 1.015 = 7.308, half up to 7.31.
    expect(ad).toMatchObject({
      side: 'sell',
      price: '7.31',
      total: '1000.000000',
      methods: ['bank'],
      status: 'online',
    });
    expect(test.app.engine.ledger.balance(merchant.id, 'change', USDT)).toEqual({
      available: 9_000_000_000n,
      locked: 1_000_000_000n,
    });
    const book = expectOk<{ data: P2pAd[] }>(
      await call(test.app, 'GET', '/p2p/ads', {
        side: 'buy',
        currency_id: USDT,
        fiat: 'CNY',
        method: 'bank',
        amount: '730',
      }),
    );
    expect(book.data.map((row) => row.id)).toEqual([ad.id]);
    const none = expectOk<{ data: P2pAd[] }>(
      await call(test.app, 'GET', '/p2p/ads', {
        side: 'buy',
        currency_id: USDT,
        fiat: 'CNY',
        method: 'we_chat',
      }),
    );
    expect(none.data).toEqual([]);
  });
});

describe('an order from take to release', () => {
  let order: P2pOrder;
  let image: string;

  it('takes the ad for a fiat amount, with the seller payment details and a countdown', async () => {
    order = expectOk<P2pOrder>(
      await call(test.app, 'POST', '/p2p/orders/create', { ad_id: ad.id, fiat_amount: '731' }, as(buyer)),
    );
    expect(order).toMatchObject({
      my_side: 'buy',
      status: 'unpaid',
      amount: '100.000000',
      fiat_amount: '731.00',
    });
    expect(order.deadline_time - order.created_time).toBe(15 * 60_000);
    expect(order.payment_methods.map((method) => method.account)).toEqual(['6222020202020202']);
    expect(pushes.filter((p) => p.event === 'p2p_order').map((p) => p.userId)).toEqual(
      expect.arrayContaining([merchant.id, buyer.id]),
    );
  });

  it('carries a chat with a private image between the two parties only', async () => {
    image = await upload(buyer.token, photo(200, 120, [10, 120, 200]));
    const sent = expectOk<P2pMessage>(
      await call(
        test.app,
        'POST',
        '/p2p/orders/message',
        { id: order.id, text: 'Paid by ICBC', image },
        as(buyer),
      ),
    );
    expect(sent.image).toBe(image);
    const seen = expectOk<P2pMessage[]>(
      await call(test.app, 'GET', '/p2p/orders/messages', { id: order.id }, as(merchant)),
    );
    expect(seen.map((message) => message.text)).toEqual(['Paid by ICBC']);
    const picture = await call(test.app, 'GET', '/p2p/upload/image', { id: image }, as(merchant));
    expect(Buffer.isBuffer(picture.message)).toBe(true);
  });

  it('lets nobody else read the order, its chat, its image or its payment details', async () => {
    const notFound = { type: 'error', message: translate('en', 'p2p.order_not_found') };
    expect(await call(test.app, 'GET', '/p2p/orders/detail', { id: order.id }, as(stranger))).toEqual(
      notFound,
    );
    expect(await call(test.app, 'GET', '/p2p/orders/messages', { id: order.id }, as(stranger))).toEqual(
      notFound,
    );
    expect(
      await call(test.app, 'POST', '/p2p/orders/message', { id: order.id, text: 'hello' }, as(stranger)),
    ).toEqual(notFound);
    expect(await call(test.app, 'GET', '/p2p/upload/image', { id: image }, as(stranger))).toEqual({
      type: 'error',
      message: translate('en', 'upload.not_found'),
    });
    expect((await call(test.app, 'GET', '/p2p/orders/detail', { id: order.id })).type).toBe('999');
    expect(
      (await call(test.app, 'GET', '/backoffice/p2p/orders/detail', { id: order.id }, as(buyer))).type,
    ).toBe('999');
    const listed = expectOk<{ data: P2pOrder[] }>(
      await call(test.app, 'GET', '/p2p/orders', {}, as(stranger)),
    );
    expect(listed.data).toEqual([]);
  });

  it('refuses a release without the second factor, then releases with it', async () => {
    expectOk(await call(test.app, 'POST', '/p2p/orders/paid', { id: order.id }, as(buyer)));
    expect(await call(test.app, 'POST', '/p2p/orders/release', { id: order.id }, as(buyer))).toEqual({
      type: 'error',
      message: translate('en', 'p2p.order_not_found'),
    });
    const before = await state();
    expect(await call(test.app, 'POST', '/p2p/orders/release', { id: order.id }, as(merchant))).toEqual({
      type: 'error',
      message: translate('en', 'totp.required'),
    });
    expect(await state()).toBe(before);
    const released = expectOk<P2pOrder>(
      await call(
        test.app,
        'POST',
        '/p2p/orders/release',
        { id: order.id, totp_code: authenticatorCode(merchantSecret) },
        as(merchant),
      ),
    );
    expect(released).toMatchObject({ status: 'completed', end: 'released', payment_methods: [] });
    for (const party of [buyer.id, merchant.id])
      expect(pushes).toContainEqual({
        userId: party,
        event: 'p2p_order',
        payload: expect.objectContaining({ order_id: order.id, change: 'released', status: 'completed' }),
      });
    expect(pushes.some((push) => push.userId === stranger.id && push.event === 'p2p_order')).toBe(false);
    expect(test.app.engine.ledger.balance(buyer.id, 'change', USDT).available).toBe(100_000_000n);
    const stats = expectOk<{ completed: number; completion_rate_30d: string }>(
      await call(test.app, 'GET', '/p2p/merchant/stats', { user_id: merchant.id }),
    );
    expect(stats).toMatchObject({ completed: 1, completion_rate_30d: '100.00' });
  });

  it('lets each party rate the other once after completion, and counts the ratings in the statistics', async () => {
    const feedbackRows = async () =>
      JSON.stringify(
        (
          await test.store.query(
            'select order_id::text, from_user, positive, comment from p2p_feedback order by 1, 2',
          )
        ).rows,
      );
    expect(
      await call(
        test.app,
        'POST',
        '/p2p/orders/feedback',
        { id: order.id, rating: 'positive' },
        as(stranger),
      ),
    ).toEqual({ type: 'error', message: translate('en', 'p2p.order_not_found') });
    expect(await call(test.app, 'GET', '/p2p/orders/feedback', { id: order.id }, as(stranger))).toEqual({
      type: 'error',
      message: translate('en', 'p2p.order_not_found'),
    });
    const bad = await call(
      test.app,
      'POST',
      '/p2p/orders/feedback',
      { id: order.id, rating: 'great' },
      as(buyer),
    );
    expect(bad.type).toBe('error');
    expect(await feedbackRows()).toBe('[]');

    const given = expectOk<P2pOrderFeedback>(
      await call(
        test.app,
        'POST',
        '/p2p/orders/feedback',
        { id: order.id, rating: 'positive', comment: 'Fast release.' },
        as(buyer),
      ),
    );
    expect(given).toMatchObject({
      can_rate: true,
      mine: { rating: 'positive', comment: 'Fast release.' },
      theirs: null,
    });
    const before = await feedbackRows();
    expect(
      await call(
        test.app,
        'POST',
        '/p2p/orders/feedback',
        { id: order.id, rating: 'negative' },
        as(buyer, 'zh'),
      ),
    ).toEqual({ type: 'error', message: translate('zh', 'p2p.feedback_given') });
    expect(await feedbackRows()).toBe(before);

    expectOk(
      await call(
        test.app,
        'POST',
        '/p2p/orders/feedback',
        { id: order.id, rating: 'negative' },
        as(merchant),
      ),
    );
    const seen = expectOk<P2pOrderFeedback>(
      await call(test.app, 'GET', '/p2p/orders/feedback', { id: order.id }, as(merchant)),
    );
    expect(seen).toMatchObject({
      mine: { rating: 'negative', comment: '' },
      theirs: { rating: 'positive', comment: 'Fast release.' },
    });
    const merchantStats = expectOk<P2pMerchantStats>(
      await call(test.app, 'GET', '/p2p/merchant/stats', { user_id: merchant.id }),
    );
    expect(merchantStats).toMatchObject({ feedback_count: 1, positive_rate: '100.00' });
    const buyerStats = expectOk<P2pMerchantStats>(
      await call(test.app, 'GET', '/p2p/merchant/stats', { user_id: buyer.id }),
    );
    expect(buyerStats).toMatchObject({ feedback_count: 1, positive_rate: '0.00' });
  });
});

describe('an appeal decided by an arbiter', () => {
  let order: P2pOrder;

  it('waits the disclosed time, then keeps the escrow locked until the decision', async () => {
    order = expectOk<P2pOrder>(
      await call(test.app, 'POST', '/p2p/orders/create', { ad_id: ad.id, amount: '50' }, as(buyer)),
    );
    expectOk(await call(test.app, 'POST', '/p2p/orders/paid', { id: order.id }, as(buyer)));
    const early = await call(
      test.app,
      'POST',
      '/p2p/orders/appeal',
      { id: order.id, reason: 'not_released', description: 'I paid, nothing came.' },
      as(buyer),
    );
    expect(early).toEqual({
      type: 'error',
      message: translate('en', 'p2p.appeal_too_early', { minutes: 10 }),
    });
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 11 * 60_000 });
    const evidence = await upload(buyer.token, photo(160, 100, [250, 250, 10]));
    const appealed = expectOk<P2pOrder>(
      await call(
        test.app,
        'POST',
        '/p2p/orders/appeal',
        { id: order.id, reason: 'not_released', description: 'I paid, nothing came.', evidence: [evidence] },
        as(buyer),
      ),
    );
    expect(appealed.status).toBe('appealed');
    expect(test.app.engine.p2p.order(order.id)?.status).toBe('appealed');
    // An order in appeal cannot be rated: only a completed one.
    expect(
      await call(test.app, 'POST', '/p2p/orders/feedback', { id: order.id, rating: 'negative' }, as(buyer)),
    ).toEqual({ type: 'error', message: translate('en', 'p2p.feedback_not_completed') });
    expect(
      expectOk<P2pOrderFeedback>(
        await call(test.app, 'GET', '/p2p/orders/feedback', { id: order.id }, as(buyer)),
      ),
    ).toEqual({ can_rate: false, mine: null, theirs: null });
  });

  it("lists a user's orders to the arbiter, counted with the same filter", async () => {
    const listed = expectOk<{ data: P2pAdminOrder[]; total: number }>(
      await call(
        test.app,
        'GET',
        '/backoffice/p2p/orders',
        { user_id: buyer.id, status: 'appealed' },
        { token: admin.token },
      ),
    );
    expect(listed.data.map((row) => row.id)).toContain(order.id);
    expect(listed.total).toBe(listed.data.length);
  });

  it('shows the arbiter the full evidence log and decides only with a fresh code, audited', async () => {
    const detail = expectOk<P2pAdminOrder>(
      await call(test.app, 'GET', '/backoffice/p2p/orders/detail', { id: order.id }, { token: admin.token }),
    );
    expect(detail.evidence_log.map((entry) => entry.kind)).toEqual(
      expect.arrayContaining(['status', 'appeal', 'image']),
    );
    const evidenceImage = detail.appeal?.evidence[0] as string;
    const served = await call(
      test.app,
      'GET',
      '/backoffice/p2p/image',
      { id: evidenceImage },
      { token: admin.token },
    );
    expect(Buffer.isBuffer(served.message)).toBe(true);
    // An identity photo is not an order's image: not served by this route.
    const { rows: photos } = await test.store.query<{ front_upload_id: string }>(
      'select front_upload_id from real_name_submissions limit 1',
    );
    expect(
      await call(
        test.app,
        'GET',
        '/backoffice/p2p/image',
        { id: photos[0]?.front_upload_id },
        { token: admin.token },
      ),
    ).toEqual({ type: 'error', message: translate('en', 'upload.not_found') });
    const noCode = await call(
      test.app,
      'POST',
      '/backoffice/p2p/orders/decide',
      { id: order.id, to: 'buyer', reason: 'The bank slip matches.', totp_code: '000000' },
      { token: admin.token },
    );
    expect(noCode.type).toBe('error');
    expect(test.app.engine.p2p.order(order.id)?.status).toBe('appealed');
    const decided = expectOk<P2pAdminOrder>(
      await call(
        test.app,
        'POST',
        '/backoffice/p2p/orders/decide',
        {
          id: order.id,
          to: 'buyer',
          reason: 'The bank slip matches.',
          totp_code: authenticatorCode(admin.secret, 1),
        },
        { token: admin.token },
      ),
    );
    expect(decided).toMatchObject({ status: 'completed', end: 'arbiterToBuyer', decision: { to: 'buyer' } });
    expect(test.app.engine.ledger.balance(buyer.id, 'change', USDT).available).toBe(150_000_000n);
  });
});

describe('appeal reasons by side', () => {
  it('offers a seller "payment not received" and refuses a reason of the other side, changing nothing', async () => {
    const order = expectOk<P2pOrder>(
      await call(test.app, 'POST', '/p2p/orders/create', { ad_id: ad.id, amount: '20' }, as(stranger)),
    );
    expectOk(await call(test.app, 'POST', '/p2p/orders/paid', { id: order.id }, as(stranger)));
    vi.setSystemTime(Date.now() + 11 * 60_000);
    const appeal = (reason: string, user: TestUser, lang = 'en') =>
      call(
        test.app,
        'POST',
        '/p2p/orders/appeal',
        { id: order.id, reason, description: 'The money has not arrived.' },
        as(user, lang),
      );
    const before = await state();
    for (const [reason, user] of [
      ['not_released', merchant],
      ['not_received', stranger],
    ] as const)
      for (const lang of ['en', 'zh', 'hk', 'kr', 'jp'])
        expect(await appeal(reason, user, lang)).toEqual({
          type: 'error',
          message: translate(lang as 'en', 'p2p.appeal_reason_side'),
        });
    expect(await state()).toBe(before);
    expect(expectOk<P2pOrder>(await appeal('not_received', merchant)).status).toBe('appealed');
    const detail = expectOk<P2pAdminOrder>(
      await call(test.app, 'GET', '/backoffice/p2p/orders/detail', { id: order.id }, { token: admin.token }),
    );
    expect(detail.appeal).toMatchObject({ by: merchant.id, reason: 'not_received' });
  });
});

describe('the payment window', () => {
  it('cancels an unpaid order at the window end by the scheduler tick alone, returning the escrow to the ad', async () => {
    const order = expectOk<P2pOrder>(
      await call(test.app, 'POST', '/p2p/orders/create', { ad_id: ad.id, amount: '20' }, as(stranger)),
    );
    const heldBefore = test.app.engine.p2p.ad(ad.id)?.held;
    vi.setSystemTime(order.deadline_time + 1);
    await vi.waitFor(
      async () => {
        const now = expectOk<P2pOrder>(
          await call(test.app, 'GET', '/p2p/orders/detail', { id: order.id }, as(stranger)),
        );
        expect(now).toMatchObject({ status: 'cancelled', end: 'timedOut' });
      },
      { timeout: 5_000, interval: 100 },
    );
    expect(test.app.engine.p2p.ad(ad.id)?.held).toBe((heldBefore ?? 0n) + 20_000_000n);
    const counters = expectOk<{ cancellations_today: number }>(
      await call(test.app, 'GET', '/p2p/counters', {}, as(stranger)),
    );
    expect(counters.cancellations_today).toBe(1);
  });
});

describe("a merchant's completion rate", () => {
  it("does not fall when the buyer cancels or lets the window lapse, only for the merchant's own failure", async () => {
    const stats = async () =>
      expectOk<{ completed: number; completion_rate_30d: string; orders_30d: number }>(
        await call(test.app, 'GET', '/p2p/merchant/stats', { user_id: merchant.id }),
      );
    // So far: a release and a decision for the buyer completed; the stranger's order timed out.
    expect(await stats()).toMatchObject({ completed: 2, completion_rate_30d: '100.00', orders_30d: 3 });
    const cancelled = expectOk<P2pOrder>(
      await call(test.app, 'POST', '/p2p/orders/create', { ad_id: ad.id, amount: '20' }, as(stranger)),
    );
    expectOk(await call(test.app, 'POST', '/p2p/orders/cancel', { id: cancelled.id }, as(stranger)));
    expect(await stats()).toMatchObject({ completion_rate_30d: '100.00', orders_30d: 4 });
    // The acceptor (the merchant) rejecting a deal is its own failure.
    const rejected = expectOk<P2pOrder>(
      await call(test.app, 'POST', '/p2p/orders/create', { ad_id: ad.id, amount: '20' }, as(stranger)),
    );
    expectOk(await call(test.app, 'POST', '/p2p/acceptor/reject', { id: rejected.id }, as(merchant)));
    expect(await stats()).toMatchObject({ completion_rate_30d: '66.66', orders_30d: 5 });
  });
});

describe('acceptor deals', () => {
  it('lists the user deals in the spec shape', async () => {
    const deals = expectOk<{ data: Record<string, unknown>[] }>(
      await call(test.app, 'GET', '/acceptor/my_deal', { type: 'buy' }, as(buyer)),
    );
    expect(deals.data.length).toBe(2);
    expect(Object.keys(deals.data[0] ?? {}).sort()).toEqual(
      [
        'acceptor_name',
        'create_time',
        'deal_account',
        'hes_account',
        'id',
        'is_sure',
        'money',
        'number',
        'order_id',
        'type',
        'update_time',
        'way',
      ].sort(),
    );
    expect(deals.data.map((deal) => deal.is_sure)).toEqual([1, 1]);
    // Completed deals keep the method and the acceptor's account the buyer paid to.
    expect(deals.data.map((deal) => [deal.way, deal.hes_account])).toEqual([
      ['bank', '6222020202020202'],
      ['bank', '6222020202020202'],
    ]);
  });

  it('shows a completed WeChat deal as WeChat with its account, the method named on "paid"', async () => {
    const weChat = expectOk<P2pPaymentMethod>(
      await call(
        test.app,
        'POST',
        '/p2p/methods/add',
        { method: 'we_chat', holder_name: 'Wang Fang', account: 'wangfang-wx' },
        as(merchant),
      ),
    );
    const twoMethods = expectOk<P2pAd>(
      await call(
        test.app,
        'POST',
        '/p2p/ads/create',
        {
          side: 'sell',
          currency_id: USDT,
          fiat: 'CNY',
          price_type: 'fixed',
          price: '7.00',
          total: '100',
          min_fiat: '100',
          max_fiat: '700',
          method_ids: [sellMethod.id, weChat.id],
        },
        as(merchant),
      ),
    );
    const deal = expectOk<{ id: number }>(
      await call(
        test.app,
        'POST',
        '/p2p/acceptor/deal',
        { type: 'buy', ad_id: twoMethods.id, money: '140' },
        as(stranger),
      ),
    );
    const before = await state();
    expect(
      await call(test.app, 'POST', '/p2p/orders/paid', { id: deal.id, method_id: 999_999 }, as(stranger)),
    ).toEqual({ type: 'error', message: translate('en', 'p2p.method_not_found') });
    expect(await state()).toBe(before);
    expectOk(
      await call(test.app, 'POST', '/p2p/orders/paid', { id: deal.id, method_id: weChat.id }, as(stranger)),
    );
    expectOk(
      await call(
        test.app,
        'POST',
        '/p2p/acceptor/confirm',
        { id: deal.id, totp_code: authenticatorCode(merchantSecret, 1) },
        as(merchant),
      ),
    );
    const listed = expectOk<{ data: { id: number; is_sure: number; way: string; hes_account: string }[] }>(
      await call(test.app, 'GET', '/acceptor/my_deal', { type: 'buy' }, as(stranger)),
    );
    expect(listed.data.find((row) => row.id === deal.id)).toMatchObject({
      is_sure: 1,
      way: 'we_chat',
      hes_account: 'wangfang-wx',
    });
  });

  it('lets the acceptor reject a waiting deal (is_sure 2)', async () => {
    const deal = expectOk<{ id: number; is_sure: number }>(
      await call(
        test.app,
        'POST',
        '/p2p/acceptor/deal',
        { type: 'buy', ad_id: ad.id, money: '146.20' },
        as(buyer),
      ),
    );
    expect(deal.is_sure).toBe(0);
    expect((await call(test.app, 'POST', '/p2p/acceptor/reject', { id: deal.id }, as(buyer))).type).toBe(
      'error',
    );
    const rejected = expectOk<{ is_sure: number }>(
      await call(test.app, 'POST', '/p2p/acceptor/reject', { id: deal.id }, as(merchant)),
    );
    expect(rejected.is_sure).toBe(2);
  });
});

describe('a sell deal with an acceptor (a fiat withdrawal)', () => {
  let sellDealId = 0;
  it('escrows the user coins; the acceptor confirms by marking paid (is_sure 1)', async () => {
    const buyAd = expectOk<P2pAd>(
      await call(
        test.app,
        'POST',
        '/p2p/ads/create',
        {
          side: 'buy',
          currency_id: USDT,
          fiat: 'CNY',
          price_type: 'fixed',
          price: '7.10',
          total: '500',
          min_fiat: '100',
          max_fiat: '2000',
          method_ids: [sellMethod.id],
        },
        as(merchant),
      ),
    );
    const method = expectOk<P2pPaymentMethod>(
      await call(
        test.app,
        'POST',
        '/p2p/methods/add',
        { method: 'ali_pay', holder_name: 'Li Lei', account: 'lilei@alipay.example' },
        as(buyer),
      ),
    );
    const deal = expectOk<{
      id: number;
      is_sure: number;
      type: string;
      deal_account: string;
      number: string;
    }>(
      await call(
        test.app,
        'POST',
        '/p2p/acceptor/deal',
        { type: 'sell', ad_id: buyAd.id, money: '710', method_id: method.id },
        as(buyer),
      ),
    );
    expect(deal).toMatchObject({
      type: 'sell',
      is_sure: 0,
      number: '100.000000',
      deal_account: 'lilei@alipay.example',
    });
    expect(test.app.engine.ledger.balance(buyer.id, 'change', USDT).locked).toBe(100_000_000n);
    const confirmed = expectOk<{ is_sure: number }>(
      await call(test.app, 'POST', '/p2p/acceptor/confirm', { id: deal.id }, as(merchant)),
    );
    expect(confirmed.is_sure).toBe(1);
    const listed = expectOk<{ data: { id: number; is_sure: number }[] }>(
      await call(test.app, 'GET', '/acceptor/my_deal', { type: 'sell' }, as(buyer)),
    );
    expect(listed.data).toEqual([expect.objectContaining({ id: deal.id, is_sure: 1 })]);
    sellDealId = deal.id;
  });

  it('releases with an e-mail code worded as a P2P release code, not a withdrawal code', async () => {
    for (const lang of ['en', 'zh', 'hk', 'kr', 'jp'] as const)
      expect(translate(lang, 'purpose.p2p_release')).not.toBe(translate(lang, 'purpose.withdraw'));
    expectOk(await call(test.app, 'POST', '/p2p/security_code', { purpose: 'release' }, as(buyer)));
    const { rows } = await test.store.query<{ subject: string; body: string }>(
      `select subject, body from outbound_messages where recipient = (select email from users where id = $1)
        order by id desc limit 1`,
      [buyer.id],
    );
    const body = rows[0]?.body ?? '';
    expect(body).toContain(translate('en', 'purpose.p2p_release'));
    expect(body).not.toContain(translate('en', 'purpose.withdraw'));
    const code = /\b(\d{6})\b/.exec(body)?.[1] as string;
    const released = expectOk<P2pOrder>(
      await call(test.app, 'POST', '/p2p/orders/release', { id: sellDealId, code }, as(buyer)),
    );
    expect(released).toMatchObject({ status: 'completed', end: 'released' });
  });
});

describe('the configuration', () => {
  it('is set in the back office, audited, and shown to users', async () => {
    expectOk(
      await call(
        test.app,
        'POST',
        '/backoffice/p2p/config',
        { maker_fee_bp: 10, taker_fee_bp: 20, appeal_wait_minutes: 15, cancellations_per_day: 3 },
        { token: admin.token },
      ),
    );
    const config = expectOk<{ maker_fee_bp: number; taker_fee_bp: number; appeal_wait_minutes: number }>(
      await call(test.app, 'GET', '/p2p/config'),
    );
    expect(config).toMatchObject({ maker_fee_bp: 10, taker_fee_bp: 20, appeal_wait_minutes: 15 });
    const { rows } = await test.store.query(`select 1 from audit_log where action = 'p2p.configured'`);
    expect(rows).toHaveLength(1);
  });

  it('names when each reference price was set, so a floating price shows how old it is', async () => {
    const before = Date.now();
    expectOk(
      await call(
        test.app,
        'POST',
        '/backoffice/p2p/reference',
        { currency_id: USDT, fiat: 'CNY', price: '7.25' },
        { token: admin.token },
      ),
    );
    const after = Date.now();
    for (const url of ['/p2p/config', '/backoffice/p2p/config']) {
      const config = expectOk<P2pConfig>(await call(test.app, 'GET', url, {}, { token: admin.token }));
      const reference = config.references.find((item) => item.currency_id === USDT && item.fiat === 'CNY');
      expect(reference?.price).toBe('7.25');
      expect(reference?.time).toBeGreaterThanOrEqual(before);
      expect(reference?.time).toBeLessThanOrEqual(after);
    }
  });
});

describe('bad input', () => {
  const cases: [string, 'GET' | 'POST', string, Record<string, unknown>][] = [
    ['an unknown fiat', 'GET', '/p2p/ads', { side: 'buy', currency_id: USDT, fiat: 'XXX' }],
    [
      'a negative amount filter',
      'GET',
      '/p2p/ads',
      { side: 'buy', currency_id: USDT, fiat: 'CNY', amount: '-5' },
    ],
    ['no nickname', 'POST', '/p2p/merchant/apply', {}],
    [
      'a method of no kind',
      'POST',
      '/p2p/methods/add',
      { method: 'cash', holder_name: 'Li Lei', account: '123' },
    ],
    [
      'an ad without methods',
      'POST',
      '/p2p/ads/create',
      {
        side: 'sell',
        currency_id: USDT,
        fiat: 'CNY',
        price_type: 'fixed',
        price: '7',
        total: '1',
        min_fiat: '1',
        max_fiat: '2',
        method_ids: [],
      },
    ],
    [
      'a fixed ad without a price',
      'POST',
      '/p2p/ads/create',
      {
        side: 'sell',
        currency_id: USDT,
        fiat: 'CNY',
        price_type: 'fixed',
        total: '1',
        min_fiat: '1',
        max_fiat: '2',
        method_ids: [1],
      },
    ],
    ['both amounts', 'POST', '/p2p/orders/create', { ad_id: 1, amount: '1', fiat_amount: '10' }],
    ['an amount below the ad limits', 'POST', '/p2p/orders/create', { ad_id: 1, fiat_amount: '1' }],
    ['too many decimals', 'POST', '/p2p/orders/create', { ad_id: 1, amount: '1.0000001' }],
    ['an order of nobody', 'POST', '/p2p/orders/paid', { id: 999_999 }],
    ['a release without an id', 'POST', '/p2p/orders/release', {}],
    ['a short appeal', 'POST', '/p2p/orders/appeal', { id: 1, reason: 'other', description: 'short' }],
    ['an empty message', 'POST', '/p2p/orders/message', { id: 1 }],
    ['a bad image id', 'GET', '/p2p/upload/image', { id: '../../etc/passwd' }],
    ['a deal of no type', 'POST', '/p2p/acceptor/deal', { type: 'swap', ad_id: 1, money: '1' }],
  ];
  it.each(cases)('refuses %s in words, changing nothing', async (_name, method, url, input) => {
    const before = await state();
    for (const lang of ['en', 'zh', 'hk', 'kr', 'jp']) {
      const reply = await call(test.app, method, url, input, as(buyer, lang));
      expect(reply.type, `${url} ${lang}`).toBe('error');
      expect(typeof reply.message).toBe('string');
      expect((reply.message as string).length).toBeGreaterThan(3);
    }
    expect(await state()).toBe(before);
  });
});

describe('revoking a merchant', () => {
  it('pauses its ads, pushes is_seller 0 and is audited', async () => {
    expectOk(
      await call(
        test.app,
        'POST',
        '/backoffice/p2p/merchants/revoke',
        { user_id: merchant.id, reason: 'Repeated complaints.' },
        { token: admin.token },
      ),
    );
    expect(pushes).toContainEqual({
      userId: merchant.id,
      event: 'seller',
      payload: { type: 'seller', is_seller: 0 },
    });
    expect(test.app.engine.p2p.ad(ad.id)?.status).toBe('paused');
    const resumed = await call(test.app, 'POST', '/p2p/ads/resume', { id: ad.id }, as(merchant));
    expect(resumed).toEqual({ type: 'error', message: translate('en', 'p2p.not_merchant') });
  });
});

describe('the projection', () => {
  it('is rebuilt from the journal to the same rows', async () => {
    const dump = async () => {
      const parts = [];
      for (const table of P2P_TABLES)
        parts.push((await test.store.query(`select * from ${table} order by 1, 2`)).rows);
      return JSON.stringify(parts, (_key, value: unknown) =>
        typeof value === 'bigint' ? value.toString() : value,
      );
    };
    const live = await dump();
    expect(live).toContain('timedOut');
    const rebuilt = await rebuildExchangeProjections(test.store);
    expect(rebuilt.stateHash).toBe(test.app.engine.stateHash());
    expect(await dump()).toBe(live);
  });
});
