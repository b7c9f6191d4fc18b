// The demo merchant of a fresh exchange (`npm start`, DEMO=on): one approved merchant with a sell ad and a
// buy ad of USDT for CNY, so the ad book is not empty on a first look. Created once, on a start with demo
// data (never with DEMO=off, nor on a store that has it already), through the same engine commands as any
// merchant. It is a flagged demo account (users.is_demo): created now, never backdated, tagged "demo" on its
// ads and left out of every public figure. Its USDT is house capital (a labelled `systemFund` into the
// house) moved to it by a labelled `houseTransfer`: never a deposit. The account cannot log in (no password
// works against its hash).
import type { Command, Engine, EngineEvent } from '@fairex/engine';
import { randomBytes } from 'node:crypto';
import type { EngineRunner } from '../engine-runner/index.ts';
import type { Store } from '../store/index.ts';

export const DEMO_MERCHANT_ACCOUNT = 'p2p-demo-merchant@fairex.invalid';
const USDT = 3;
const UNIT = 1_000_000n;
/** The demo merchant's USDT, in whole units: house capital, moved to it by a labelled house transfer. */
export const DEMO_MERCHANT_FUNDS = 50_000n;
/** The journal's labels of that funding, as the back office and the account log show them. */
export const DEMO_MERCHANT_CAPITAL_MEMO = 'demo: house capital for the P2P demo merchant';
export const DEMO_MERCHANT_FUNDS_MEMO = 'demo: the P2P demo merchant funds, from the house';

export async function seedDemoMerchant(
  store: Store,
  runner: Pick<EngineRunner<Command, EngineEvent, Engine>, 'submit' | 'engine'>,
  now: number = Date.now(),
): Promise<boolean> {
  if (runner.engine.ledger.currency(USDT)?.code !== 'USDT') return false;
  const { rows: existing } = await store.query('select id from users where account = $1', [
    DEMO_MERCHANT_ACCOUNT,
  ]);
  if (existing.length > 0) return false;
  const suffix = randomBytes(4).toString('hex');
  const userId = await store.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: number }>(
      `insert into users (account, email, password_hash, extension_code, review_status, is_seller, is_demo)
       values ($1, $1, '!demo-account-without-password', $2, 2, true, true) returning id`,
      [DEMO_MERCHANT_ACCOUNT, `P2P${suffix}`],
    );
    const id = (rows[0] as { id: number }).id;
    await tx.query(
      `insert into p2p_applications (user_id, nickname, note, status, created_ms, reviewed_ms)
       values ($1, 'Fairex Demo OTC', 'demo merchant of a fresh exchange', 'approved', $2, $2)`,
      [id, now],
    );
    return id;
  });
  const { rows: methods } = await store.query<{ id: number }>(
    `insert into p2p_payment_methods (user_id, method, holder_name, account, bank_name, created_ms)
     values ($1, 'bank', 'Demo Merchant', '6222 0000 0000 0000', 'Demo Bank', $2),
            ($1, 'ali_pay', 'Demo Merchant', 'demo-merchant@alipay.invalid', '', $2),
            ($1, 'we_chat', 'Demo Merchant', 'demo_merchant', '', $2)
     returning id`,
    [userId, now],
  );
  const methodIds = methods.map((row) => row.id);
  const commands: Command[] = [
    {
      type: 'systemFund',
      owner: 'house',
      currencyId: USDT,
      amount: DEMO_MERCHANT_FUNDS * UNIT,
      memo: DEMO_MERCHANT_CAPITAL_MEMO,
    },
    {
      type: 'houseTransfer',
      userId,
      currencyId: USDT,
      amount: DEMO_MERCHANT_FUNDS * UNIT,
      memo: DEMO_MERCHANT_FUNDS_MEMO,
    },
    { type: 'p2pSetMerchant', userId, approved: true, acceptor: true },
    { type: 'p2pSetReference', currencyId: USDT, fiat: 'CNY', priceCents: 720n },
    {
      type: 'p2pPostAd',
      userId,
      side: 'sell',
      currencyId: USDT,
      fiat: 'CNY',
      total: 20_000n * UNIT,
      priceCents: 0n,
      floatBp: 50,
      minFiatCents: 10_000n,
      maxFiatCents: 5_000_000n,
      windowMs: 15 * 60_000,
      methodIds,
      terms: 'Demo ad: pay within the window to the shown account, then mark the order as paid.',
    },
    {
      type: 'p2pPostAd',
      userId,
      side: 'buy',
      currencyId: USDT,
      fiat: 'CNY',
      total: 20_000n * UNIT,
      priceCents: 715n,
      floatBp: null,
      minFiatCents: 10_000n,
      maxFiatCents: 5_000_000n,
      windowMs: 15 * 60_000,
      methodIds,
      terms: 'Demo ad: the merchant pays to the method you choose.',
    },
  ];
  for (const command of commands) {
    const outcome = await runner.submit(command);
    if (outcome.code !== 0)
      throw new Error(`the engine refused ${command.type} (result code ${outcome.code})`);
  }
  return true;
}
