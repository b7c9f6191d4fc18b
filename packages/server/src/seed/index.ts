// Seeds the demo currencies and markets. Idempotent: rows are inserted only when their id is missing, so
// a second start changes nothing and an operator's later edits are never overwritten.
import { parseDecimal } from '@fairex/shared';
import type { Store } from '../store/index.ts';
import type { DemoCurrency } from './demo-data.ts';
import { DEMO_CURRENCIES, DEMO_LEVER, DEMO_MARKETS } from './demo-data.ts';

export { DEMO_CURRENCIES, DEMO_LEVER, DEMO_MARKETS } from './demo-data.ts';

export interface SeedResult {
  currencies: number;
  markets: number;
}

function currencyByCode(code: string): DemoCurrency {
  const currency = DEMO_CURRENCIES.find((candidate) => candidate.code === code);
  if (!currency) throw new Error(`Demo market refers to unknown currency ${code}`);
  return currency;
}

export async function seedDemoData(store: Store): Promise<SeedResult> {
  return store.transaction(async (tx) => {
    let currencies = 0;
    for (const [index, currency] of DEMO_CURRENCIES.entries()) {
      const { rowCount } = await tx.query(
        `insert into currencies (id, code, name, scale, udun_id, chains, withdraw_min, withdraw_fee, display_order, descriptions)
         values ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9, $10::jsonb)
         on conflict (id) do nothing`,
        [
          currency.id,
          currency.code,
          currency.name,
          currency.scale,
          currency.udunId,
          JSON.stringify(currency.chains),
          parseDecimal(currency.withdrawMin, currency.scale),
          parseDecimal(currency.withdrawFee, currency.scale),
          index + 1,
          JSON.stringify(currency.descriptions),
        ],
      );
      currencies += rowCount;
    }
    let markets = 0;
    for (const [index, market] of DEMO_MARKETS.entries()) {
      const base = currencyByCode(market.base);
      const quote = currencyByCode(market.quote);
      const lotSize = parseDecimal(market.lotSize, base.scale, { min: 1n });
      const { rowCount } = await tx.query(
        `insert into markets (id, base_currency_id, quote_currency_id, symbol, price_scale, price_tick, lot_size, min_size,
                              min_notional, maker_fee_ppm, taker_fee_ppm, is_display, display_order,
                              lever_enabled, lever_share_size, lever_share_min, lever_share_max, lever_share_presets,
                              lever_multiples, lever_spread_ppm, lever_fee_ppm, lever_overnight_ppm)
         values ($1, $2, $3, $4, $5, 1, $6, $6, $7, $8, $9, true, $10, $11, $12, $13, $14, $15::jsonb, $16::jsonb, $17, $18, $19)
         on conflict (id) do nothing`,
        [
          market.id,
          base.id,
          quote.id,
          `${base.code}/${quote.code}`,
          market.priceScale,
          lotSize,
          parseDecimal(market.minNotional, quote.scale),
          market.makerFeePpm,
          market.takerFeePpm,
          index + 1,
          DEMO_LEVER.enabled,
          parseDecimal(market.leverShareSize, base.scale, { min: 1n }),
          DEMO_LEVER.shareMin,
          DEMO_LEVER.shareMax,
          JSON.stringify(DEMO_LEVER.sharePresets),
          JSON.stringify(DEMO_LEVER.multiples),
          DEMO_LEVER.spreadPpm,
          DEMO_LEVER.feePpm,
          DEMO_LEVER.overnightPpm,
        ],
      );
      markets += rowCount;
    }
    return { currencies, markets };
  });
}
