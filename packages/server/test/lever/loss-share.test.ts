// The public share of lever accounts that lost money (/lever/loss_share) from recorded closes: demo accounts
// count for nothing, fewer than 20 accounts give no count or share, and from 20 on the share is exact.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LeverService } from '../../src/lever/service.ts';
import type { Store } from '../../src/store/index.ts';
import { createUser, openTestStore, removeTempDirs } from '../helper.ts';

let store: Store;
let service: LeverService;
let positionId = 0;
const nowMs = Date.UTC(2026, 11, 1);

/** One closed position of the user, with this profit (fee 10, no overnight charges). */
async function closed(userId: number, profit: bigint): Promise<void> {
  positionId += 1;
  await store.query(
    `insert into lever_positions (position_id, user_id, market_id, quote_currency_id, side, share, lots, multiple,
       entry_ticks, contract_value, margin, fee, lots_per_share, spread_ppm, fee_ppm, overnight_ppm, threshold_bp,
       liquidation_fee_ppm, placed_status, placed_ms, mark_ticks, created_seq)
     values ($1, $2, 1, 3, 1, 1, 1, 10, 1, 100, 10, 10, 1, 0, 0, 0, 1000, 0, 1, $3, 1, $1)`,
    [positionId, userId, nowMs - 60_000],
  );
  await store.query(
    `insert into lever_ends (position_id, user_id, market_id, quote_currency_id, status, reason, ended_ms, margin,
       origin_margin, overnight_paid, profit, returned, loss_from_margin, loss_from_balance, loss_from_other_margins,
       shortfall, house_unpaid, fee_refund, ended_seq)
     values ($1, $2, 1, 3, 3, 'user', $3, 10, 10, 0, $4, 0, 0, 0, 0, 0, 0, 0, $1)`,
    [positionId, userId, nowMs - 1_000, profit.toString()],
  );
}

beforeAll(async () => {
  store = await openTestStore();
  const runner = { engine: undefined, submit: () => Promise.reject(new Error('not used')) };
  service = new LeverService(runner as never, store, () => undefined);
});

afterAll(async () => {
  await store.close();
  await removeTempDirs();
});

describe('the lever loss share', () => {
  it('says nothing exact about one account', async () => {
    await closed(await createUser(store), -100n);
    expect(await service.lossShare(90, nowMs)).toEqual({
      days: 90,
      accounts: null,
      losing_accounts: null,
      losing_share: null,
      minimum_accounts: 20,
      below_minimum: true,
    });
  });

  it('leaves demo accounts out, and is exact from 20 real accounts', async () => {
    // 18 more real accounts (19 in all): still withheld, however many demo accounts closed positions.
    for (let index = 0; index < 18; index += 1) await closed(await createUser(store), index < 8 ? -5n : 500n);
    for (let index = 0; index < 3; index += 1) {
      const demo = await createUser(store);
      await store.query('update users set is_demo = true where id = $1', [demo]);
      await closed(demo, -1_000n);
    }
    expect((await service.lossShare(90, nowMs)).below_minimum).toBe(true);
    await closed(await createUser(store), 1_000n);
    // 20 real accounts, 9 of them losing (the first and 8 more): 45.0 %; the demo losses are not in it.
    expect(await service.lossShare(90, nowMs)).toEqual({
      days: 90,
      accounts: 20,
      losing_accounts: 9,
      losing_share: '45.0',
      minimum_accounts: 20,
      below_minimum: false,
    });
  });
});
