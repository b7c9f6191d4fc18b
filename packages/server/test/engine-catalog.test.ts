import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_CURRENCIES, DEMO_MARKETS } from '../src/seed/index.ts';
import { buildTestApp, openTestStore, removeTempDirs } from './helper.ts';

afterAll(removeTempDirs);

describe('the engine learns the SQL catalogue at start', () => {
  it('adds every seeded currency and market once, and a restart or a fee change journals only the difference', async () => {
    const store = await openTestStore();
    try {
      const first = await buildTestApp(store);
      await first.ready();
      expect(
        first.engine.ledger
          .currencies()
          .map((currency) => currency.currencyId)
          .sort(),
      ).toEqual(DEMO_CURRENCIES.map((currency) => currency.id).sort());
      expect(
        first.engine.spot
          .markets()
          .map((market) => market.marketId)
          .sort(),
      ).toEqual(DEMO_MARKETS.map((market) => market.id).sort());
      const seqAfterFirstStart = first.engine.lastSeq;
      await first.close();

      await store.query('update markets set taker_fee_ppm = 1234 where id = $1', [DEMO_MARKETS[0]!.id]);
      const second = await buildTestApp(store);
      await second.ready();
      expect(second.engine.lastSeq).toBe(seqAfterFirstStart + 1);
      expect(second.engine.spot.market(DEMO_MARKETS[0]!.id)?.takerFeePpm).toBe(1234);
      await second.close();

      const third = await buildTestApp(store);
      await third.ready();
      expect(third.engine.lastSeq).toBe(seqAfterFirstStart + 1);
      await third.close();
    } finally {
      await store.close();
    }
  });
});
