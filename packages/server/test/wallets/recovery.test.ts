// Work a stop interrupted is finished when the server starts again: a deposit row whose credit never ran is
// credited, one whose credit ran is only marked (never credited twice), a withdrawal request the engine
// never held is dropped, one it held is attached, and a flash exchange that never ran is marked failed.
import { afterAll, describe, expect, it } from 'vitest';
import { buildTestApp, createUser, openTestStore, projected, removeTempDirs, tempDir } from '../helper.ts';
import { CUSTODY_KEY, USDT, expectLedgerBalanced } from './wallet-helper.ts';

afterAll(async () => {
  await removeTempDirs();
});

describe('recovery at start', () => {
  it('finishes half-done deposits, withdrawals and flash exchanges exactly once', async () => {
    const store = await openTestStore();
    const env = { CUSTODY_API_KEY: CUSTODY_KEY, DATA_DIR: await tempDir('fairex-recovery-') };
    const first = await buildTestApp(store, { env });
    await first.ready();
    const userId = await createUser(store, { reviewStatus: 2 });

    const insertDeposit = async (txId: string) => {
      const { rows } = await store.query<{ id: number }>(
        `insert into deposits (user_id, currency_id, chain_type, address, coin_type, tx_id, chain_amount,
                               chain_decimals, amount, source, status)
         values ($1, $2, 0, 'addr', 'coin', $3, 5000000, 6, 5000000, 'custody', 'pending') returning id`,
        [userId, USDT, txId],
      );
      return rows[0]?.id as number;
    };
    // Stopped after the row, before the engine: must be credited at start.
    const notCredited = await insertDeposit('stopped-before-credit');
    // Stopped after the engine credited it, before the row was marked: must not be credited again.
    const credited = await insertDeposit('stopped-after-credit');
    const outcome = await first.runner.submit(
      { type: 'deposit', userId, currencyId: USDT, amount: 5_000_000n, memo: `deposit:${credited}` },
      { idempotencyKey: `deposit:${credited}` },
    );
    expect(outcome.code).toBe(0);

    const insertRequest = async () => {
      const { rows } = await store.query<{ id: number }>(
        `insert into withdrawals (user_id, currency_id, chain_type, network, address, amount, fee, status)
         values ($1, $2, 0, 'tron', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', 3000000, 1000000, 'requested') returning id`,
        [userId, USDT],
      );
      return rows[0]?.id as number;
    };
    const neverHeld = await insertRequest();
    const held = await insertRequest();
    const hold = await first.runner.submit({
      type: 'requestWithdrawal',
      userId,
      currencyId: USDT,
      amount: 3_000_000n,
      feeAmount: 1_000_000n,
      memo: `withdrawal:${held}`,
    });
    expect(hold.code).toBe(0);

    const { rows: flashRows } = await store.query<{ id: number }>(
      `insert into flash_exchanges (user_id, coin_currency_id, legal_currency_id, direction, amount, payout, fee,
                                    fee_ppm, price, index_price_time_ms, status)
       values ($1, 1, 3, 0, 1000000, 10, 0, 2000, '65000', 0, 'pending') returning id`,
      [userId],
    );
    await first.close();

    const second = await buildTestApp(store, { env });
    try {
      await second.ready();
      // 5 USDT credited before the stop plus 5 by the recovery; 3 of it held by the attached request.
      expect(second.engine.ledger.balance(userId, 'change', USDT)).toEqual({
        available: 7_000_000n,
        locked: 3_000_000n,
      });
      const deposits = await store.query<{ id: number; status: string }>(
        'select id, status from deposits where id = any($1::int[]) order by id',
        [[notCredited, credited]],
      );
      expect(deposits.rows.map((row) => row.status)).toEqual(['credited', 'credited']);
      // The account log is a projection, written behind the journal.
      await projected(second);
      const credits = await store.query(`select 1 from account_log where owner_key = $1 and reason = 100`, [
        userId,
      ]);
      expect(credits.rows).toHaveLength(2);
      const withdrawals = await store.query<{
        id: number;
        status: string;
        engine_withdrawal_id: string | number;
      }>('select id, status, engine_withdrawal_id from withdrawals order by id');
      expect(withdrawals.rows.map((row) => [row.id, row.status])).toEqual([[held, 'pending']]);
      expect(Number(withdrawals.rows[0]?.engine_withdrawal_id)).toBe(
        (hold.reply as { withdrawalId: number }).withdrawalId,
      );
      expect(withdrawals.rows.some((row) => row.id === neverHeld)).toBe(false);
      const flash = await store.query<{ status: string }>(
        'select status from flash_exchanges where id = $1',
        [flashRows[0]?.id],
      );
      expect(flash.rows[0]?.status).toBe('failed');
      expectLedgerBalanced(second);
    } finally {
      await second.close();
      await store.close();
    }
  });
});
