import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AcceptorDeal, P2pAd, P2pConfig, P2pOrder } from '@fairex/shared/api/p2p.ts';
import { renderApp } from '../../test/render.tsx';
import { refreshSession } from '../../data/session.ts';
import { applySellerPush, syncSellerFromStorage } from '../../data/seller.ts';
import { closeAuthDialog } from '../auth/auth-dialogs.ts';
import { fakeAccountApi, ok } from '../auth/test-support.tsx';

const SLOW = { timeout: 10_000 };
const NOW = Date.now();

const CONFIG: P2pConfig = {
  assets: [{ currency_id: 3, name: 'USDT', scale: 6 }],
  fiats: ['CNY', 'USD'],
  methods: ['bank', 'ali_pay', 'we_chat'],
  window_minutes: [10, 15, 20],
  default_window_minutes: 15,
  appeal_wait_minutes: 10,
  maker_fee_bp: 0,
  taker_fee_bp: 0,
  cancellations_per_day: 3,
  references: [],
};

const MERCHANT = {
  user_id: 7,
  nickname: 'Harbour OTC',
  completed: 42,
  completion_rate_30d: '97.50',
  avg_release_seconds: 125,
  orders_30d: 40,
  feedback_count: 45,
  positive_rate: '97.77',
  demo: false,
};

const AD: P2pAd = {
  id: 11,
  side: 'sell',
  currency_id: 3,
  currency_name: 'USDT',
  fiat: 'CNY',
  price_type: 'fixed',
  price: '7.20',
  float_percent: null,
  total: '1000.000000',
  available: '800.000000',
  min_fiat: '100.00',
  max_fiat: '5000.00',
  methods: ['bank', 'ali_pay'],
  window_minutes: 15,
  terms: 'Bank transfers in my name only.',
  status: 'online',
  merchant: MERCHANT,
  acceptor: false,
  created_time: NOW - 3_600_000,
};

function order(overrides: Partial<P2pOrder> = {}): P2pOrder {
  return {
    id: 501,
    ad_id: 11,
    my_side: 'buy',
    buyer: { user_id: 9, nickname: 'buyer9' },
    seller: { user_id: 7, nickname: 'Harbour OTC' },
    currency_id: 3,
    currency_name: 'USDT',
    fiat: 'CNY',
    price: '7.20',
    amount: '100.000000',
    fiat_amount: '720.00',
    fee: '0.000000',
    status: 'unpaid',
    end: null,
    created_time: NOW - 60_000,
    deadline_time: NOW + 14 * 60_000,
    paid_time: null,
    appeal_after_time: null,
    ended_time: null,
    acceptor: false,
    payment_methods: [
      {
        id: 3,
        method: 'bank',
        holder_name: 'Chan Tai Man',
        account: '6222021234567890',
        bank_name: 'Bank of Example, Central',
        qr_image: null,
        active: true,
      },
    ],
    terms: '',
    unread: 0,
    ...overrides,
  };
}

function page<T>(data: T[]) {
  return ok({ data, current_page: 1, last_page: 1, per_page: 20, total: data.length });
}

function logIn(userId: number, seller = false) {
  localStorage.setItem('token', 'T'.repeat(43));
  localStorage.setItem('accountNum', 'a@example.com');
  localStorage.setItem('user_id', String(userId));
  localStorage.setItem('is_seller', seller ? '1' : '0');
  refreshSession();
  syncSellerFromStorage(true);
}

const USER_INFO = {
  id: 9,
  account: 'a@example.com',
  extension_code: 'X',
  is_seller: 0,
  phone: null,
  area_code: null,
  email: 'a@example.com',
  review_status: 2,
  google_bind: 0,
  created_at: '2026-01-01',
};

describe('P2P screens', () => {
  beforeEach(() => {
    localStorage.clear();
    closeAuthDialog();
  });

  afterEach(() => {
    vi.unstubAllGlobals();
    localStorage.clear();
    refreshSession();
    syncSellerFromStorage(false);
  }, 30_000);

  it('lists ads with the merchant statistics and computes the take exactly, refusing amounts outside the limits', async () => {
    logIn(9);
    const { calls } = fakeAccountApi({
      '/p2p/config': () => ok(CONFIG),
      '/p2p/ads': () => page([AD]),
      '/p2p/counters': () => ok({ cancellations_today: 1, limit: 3, restricted_until: null }),
      '/p2p/orders/create': () => ok(order()),
      '/p2p/orders/detail': () => ok(order()),
      '/p2p/orders/messages': () => ok([]),
      '/user/info': () => ok(USER_INFO),
    });
    renderApp('/fiatradCenter');
    const card = await screen.findByTestId('p2p-ad-11', {}, SLOW);
    expect(within(card).getByText('42 orders')).toBeTruthy();
    expect(within(card).getByText('97.50% completion (30 days)')).toBeTruthy();
    expect(within(card).getByText('Releases in 2 min 5 s on average')).toBeTruthy();
    expect(within(card).getByTestId('p2p-merchant-positive').textContent).toBe(
      '97.77% positive (45 ratings)',
    );
    expect(screen.getByTestId('p2p-counters').textContent).toContain('Cancellations today: 1 of 3');
    const query = calls.find((call) => call.path === '/p2p/ads');
    expect(query).toBeTruthy();

    fireEvent.click(within(card).getByTestId('p2p-take-11'));
    const input = await screen.findByTestId('p2p-take-input', {}, SLOW);
    fireEvent.change(input, { target: { value: '100' } });
    // 100 CNY / 7.20 = 13.888888.. rounded down to the coin's six decimals.
    expect(screen.getByTestId('p2p-take-result').textContent).toBe('You receive 13.888888 USDT');
    fireEvent.change(input, { target: { value: '99.99' } });
    fireEvent.click(screen.getByTestId('p2p-take-confirm'));
    expect((await screen.findByTestId('p2p-take-error', {}, SLOW)).textContent).toContain('100.00 CNY');
    expect(calls.some((call) => call.path === '/p2p/orders/create')).toBe(false);

    fireEvent.change(input, { target: { value: '720' } });
    fireEvent.click(screen.getByTestId('p2p-take-confirm'));
    expect(await screen.findByTestId('p2p-order-room', {}, SLOW)).toBeTruthy();
    const created = calls.find((call) => call.path === '/p2p/orders/create');
    expect(created?.body.get('ad_id')).toBe('11');
    expect(created?.body.get('fiat_amount')).toBe('720');
  }, 30_000);

  it('dates the reference a floating ad follows, and signs its percent', async () => {
    logIn(9);
    const setAt = Date.UTC(2026, 11, 6, 2, 0, 0);
    fakeAccountApi({
      '/p2p/config': () =>
        ok({ ...CONFIG, references: [{ currency_id: 3, fiat: 'CNY', price: '7.20', time: setAt }] }),
      '/p2p/ads': () => page([{ ...AD, price_type: 'floating', float_percent: '1.5', price: '7.31' }]),
      '/p2p/counters': () => ok({ cancellations_today: 0, limit: 3, restricted_until: null }),
      '/user/info': () => ok(USER_INFO),
    });
    renderApp('/fiatradCenter');
    const card = await screen.findByTestId('p2p-ad-11', {}, SLOW);
    // Shown in the display zone (Asia/Shanghai unless chosen otherwise): 02:00 UTC is 10:00 there.
    await waitFor(() =>
      expect(within(card).getByTestId('p2p-float-note').textContent).toBe(
        ' Reference +1.5% · reference set 2026-12-06 10:00:00',
      ),
    );
  }, 30_000);

  it("shows the buyer the seller's payment details, the countdown and 'I have paid', not release", async () => {
    logIn(9);
    let current = order();
    const { calls } = fakeAccountApi({
      '/p2p/config': () => ok(CONFIG),
      '/p2p/orders/detail': () => ok(current),
      '/p2p/orders/messages': () =>
        ok([
          {
            id: 1,
            order_id: 501,
            from: 7,
            text: 'Hello, pay by bank please',
            image: null,
            created_time: NOW,
          },
        ]),
      '/p2p/orders/paid': () => {
        current = order({
          status: 'paid',
          paid_time: NOW,
          appeal_after_time: NOW + 600_000,
        });
        return ok(current);
      },
      '/user/info': () => ok(USER_INFO),
    });
    renderApp('/legalTrade?order=501');
    const room = await screen.findByTestId('p2p-order-room', {}, SLOW);
    expect(room.dataset.status).toBe('unpaid');
    expect(screen.getByTestId('p2p-countdown').textContent).toMatch(/1[34]:\d\d/);
    expect(screen.getByTestId('p2p-pay-holder').textContent).toBe('Chan Tai Man');
    expect(screen.getByTestId('p2p-pay-account').textContent).toBe('6222021234567890');
    expect(await screen.findByText('Hello, pay by bank please', {}, SLOW)).toBeTruthy();
    expect(screen.queryByTestId('p2p-release')).toBeNull();

    fireEvent.click(screen.getByTestId('p2p-paid'));
    fireEvent.click(await screen.findByTestId('p2p-paid-confirm', {}, SLOW));
    await waitFor(() => expect(calls.some((call) => call.path === '/p2p/orders/paid')).toBe(true), SLOW);
    await waitFor(() => expect(screen.getByTestId('p2p-order-room').dataset.status).toBe('paid'), SLOW);
    // The appeal opens only after the disclosed wait.
    expect(screen.getByTestId('p2p-appeal-wait').textContent).toMatch(/Appeal possible in (09|10):\d\d/);
    expect(screen.queryByTestId('p2p-appeal')).toBeNull();
    expect(screen.queryByTestId('p2p-cancel')).toBeNull();
  }, 30_000);

  it('asks for a rating once the order completed, sends it, then shows both sides', async () => {
    logIn(9);
    let feedback: { can_rate: boolean; mine: unknown; theirs: unknown } = {
      can_rate: true,
      mine: null,
      theirs: null,
    };
    const { calls } = fakeAccountApi({
      '/p2p/config': () => ok(CONFIG),
      '/p2p/orders/detail': () => ok(order({ status: 'completed', end: 'released', ended_time: NOW })),
      '/p2p/orders/messages': () => ok([]),
      '/p2p/orders/feedback': (body) => {
        if (body.has('rating'))
          feedback = {
            ...feedback,
            mine: { rating: 'positive', comment: 'Quick and polite.', created_time: NOW },
          };
        return ok(feedback);
      },
      '/user/info': () => ok(USER_INFO),
    });
    renderApp('/legalTrade?order=501');
    const box = await screen.findByTestId('p2p-feedback', {}, SLOW);
    expect(within(box).getByTestId('p2p-feedback-theirs').textContent).toBe(
      'Harbour OTC has not rated you yet.',
    );
    const submit = within(box).getByTestId('p2p-feedback-submit');
    expect((submit as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(box).getByText('Positive'));
    fireEvent.change(within(box).getByTestId('p2p-feedback-comment'), {
      target: { value: ' Quick and polite. ' },
    });
    fireEvent.click(submit);
    await waitFor(
      () => expect(screen.getByTestId('p2p-feedback-mine').textContent).toContain('Positive'),
      SLOW,
    );
    const sent = calls.find((call) => call.path === '/p2p/orders/feedback' && call.body.has('rating'));
    expect(sent?.body.get('rating')).toBe('positive');
    expect(sent?.body.get('comment')).toBe('Quick and polite.');
    expect(screen.queryByTestId('p2p-feedback-submit')).toBeNull();
  }, 30_000);

  it('tags a demo account\'s ad "Demo", and no other ad', async () => {
    logIn(9);
    const demoAd: P2pAd = { ...AD, id: 12, merchant: { ...MERCHANT, user_id: 8, demo: true } };
    fakeAccountApi({
      '/p2p/config': () => ok(CONFIG),
      '/p2p/ads': () => page([AD, demoAd]),
      '/p2p/counters': () => ok({ cancellations_today: 0, limit: 3, restricted_until: null }),
      '/user/info': () => ok(USER_INFO),
    });
    renderApp('/fiatradCenter');
    const demoCard = await screen.findByTestId('p2p-ad-12', {}, SLOW);
    expect(within(demoCard).getByTestId('p2p-demo-tag').textContent).toBe('Demo');
    expect(within(screen.getByTestId('p2p-ad-11')).queryByTestId('p2p-demo-tag')).toBeNull();
  });

  it('asks the seller for an e-mail code before releasing and refuses a malformed one without calling', async () => {
    logIn(7, true);
    const { calls } = fakeAccountApi({
      '/p2p/config': () => ok(CONFIG),
      '/p2p/orders/detail': () =>
        ok(order({ my_side: 'sell', status: 'paid', paid_time: NOW, appeal_after_time: NOW - 1 })),
      '/p2p/orders/messages': () => ok([]),
      '/p2p/security_code': () => ok('Sent'),
      '/p2p/orders/release': () => ok(order({ my_side: 'sell', status: 'completed', end: 'released' })),
      '/user/info': () => ok({ ...USER_INFO, id: 7, is_seller: 1 }),
    });
    renderApp('/legalTrade?order=501');
    fireEvent.click(await screen.findByTestId('p2p-release', {}, SLOW));
    expect(screen.getByTestId('p2p-appeal')).toBeTruthy();
    fireEvent.click(await screen.findByTestId('p2p-release-send-code', {}, SLOW));
    await waitFor(() => expect(calls.some((call) => call.path === '/p2p/security_code')).toBe(true), SLOW);
    fireEvent.change(screen.getByTestId('p2p-release-code'), { target: { value: '12a3' } });
    fireEvent.click(screen.getByTestId('p2p-release-confirm'));
    expect((await screen.findByTestId('p2p-release-error', {}, SLOW)).textContent).toBe(
      'Enter the 6-digit code',
    );
    expect(calls.some((call) => call.path === '/p2p/orders/release')).toBe(false);

    fireEvent.change(screen.getByTestId('p2p-release-code'), { target: { value: '123456' } });
    fireEvent.click(screen.getByTestId('p2p-release-confirm'));
    await waitFor(() => expect(calls.some((call) => call.path === '/p2p/orders/release')).toBe(true), SLOW);
    const release = calls.find((call) => call.path === '/p2p/orders/release');
    expect(release?.body.get('code')).toBe('123456');
    expect(release?.body.get('totp_code')).toBeNull();
  }, 30_000);

  it('lets an acceptor reject a deal on its own ad before it is paid, and nobody else', async () => {
    logIn(7, true);
    const { calls } = fakeAccountApi({
      '/p2p/config': () => ok(CONFIG),
      '/p2p/ads/detail': () => ok({ ...AD, acceptor: true }),
      '/p2p/orders/detail': () => ok(order({ my_side: 'sell', acceptor: true })),
      '/p2p/orders/messages': () => ok([]),
      '/p2p/acceptor/reject': () => ok({}),
      '/user/info': () => ok({ ...USER_INFO, id: 7, is_seller: 1 }),
    });
    renderApp('/legalTrade?order=501');
    fireEvent.click(await screen.findByTestId('p2p-reject', {}, SLOW));
    fireEvent.click(await screen.findByTestId('p2p-reject-confirm', {}, SLOW));
    await waitFor(() => expect(calls.some((call) => call.path === '/p2p/acceptor/reject')).toBe(true), SLOW);
    expect(calls.find((call) => call.path === '/p2p/acceptor/reject')?.body.get('id')).toBe('501');
  }, 30_000);

  it('shows no reject to the customer of an acceptor deal', async () => {
    logIn(9);
    const { calls } = fakeAccountApi({
      '/p2p/config': () => ok(CONFIG),
      '/p2p/ads/detail': () => ok({ ...AD, acceptor: true }),
      '/p2p/orders/detail': () => ok(order({ acceptor: true })),
      '/p2p/orders/messages': () => ok([]),
      '/user/info': () => ok(USER_INFO),
    });
    renderApp('/legalTrade?order=501');
    await screen.findByTestId('p2p-paid', {}, SLOW);
    await waitFor(() => expect(calls.some((call) => call.path === '/p2p/ads/detail')).toBe(true), SLOW);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(screen.queryByTestId('p2p-reject')).toBeNull();
  }, 30_000);

  it('offers the shop only to merchants and follows the seller push', async () => {
    logIn(9);
    fakeAccountApi({
      '/p2p/config': () => ok(CONFIG),
      '/p2p/merchant/status': () =>
        ok({
          is_seller: 0,
          application: null,
          can_apply: true,
          requirements: [
            { key: 'realName', needed: 1, have: 1, met: true },
            { key: 'accountAge', needed: 7, have: 3, met: false },
          ],
        }),
      '/p2p/orders': () => page([]),
      '/p2p/counters': () => ok({ cancellations_today: 0, limit: 3, restricted_until: null }),
      '/user/info': () => ok(USER_INFO),
    });
    renderApp('/myLegalShops');
    expect(await screen.findByTestId('p2p-apply', {}, SLOW)).toBeTruthy();
    expect(screen.getByTestId('p2p-req-accountAge').textContent).toContain('yours: 3');
    expect(screen.queryByTestId('p2p-tab-shop')).toBeNull();
    act(() => applySellerPush({ is_seller: 1 }));
    expect(await screen.findByTestId('p2p-tab-shop', {}, SLOW)).toBeTruthy();
    expect(localStorage.getItem('is_seller')).toBe('1');
  }, 30_000);

  it('lists acceptor deals by tab and shows the confirm time only once answered', async () => {
    logIn(9);
    const deal = (id: number, isSure: 0 | 1 | 2): AcceptorDeal => ({
      id,
      type: 'buy',
      money: '720.00',
      number: '100.000000',
      deal_account: '6222000011112222',
      acceptor_name: 'Harbour OTC',
      hes_account: '6222021234567890',
      way: 'bank',
      is_sure: isSure,
      create_time: '2026-11-26 10:00:00',
      update_time: isSure > 0 ? '2026-11-26 10:05:00' : '',
      order_id: 600 + id,
    });
    const { calls } = fakeAccountApi({
      '/p2p/config': () => ok(CONFIG),
      '/p2p/ads': () => page([]),
      '/acceptor/my_deal': () => page([deal(1, 0), deal(2, 1)]),
      '/user/info': () => ok(USER_INFO),
    });
    renderApp('/transferRecord?current=0');
    const waiting = await screen.findByTestId('p2p-deal-1', {}, SLOW);
    const confirmed = screen.getByTestId('p2p-deal-2');
    expect(within(waiting).getByTestId('p2p-deal-sure').textContent).toBe('Waiting for the acceptor');
    expect(within(waiting).queryByText('2026-11-26 10:05:00')).toBeNull();
    expect(within(confirmed).getByText('2026-11-26 10:05:00')).toBeTruthy();
    expect(calls.find((call) => call.path === '/acceptor/my_deal')).toBeTruthy();
  }, 30_000);
});
