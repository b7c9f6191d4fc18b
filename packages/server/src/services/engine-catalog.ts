// Brings the engine's currencies and markets in line with the SQL catalogue at start. The catalogue (seeded
// demo data or an operator's edits) is where currencies and markets are configured; the engine learns of
// them only through journaled commands, so a replay reproduces exactly the configuration it traded under.
import type { Command, Engine, Outcome } from '@fairex/engine';
import { formatDecimal } from '@fairex/shared';
import type { Store } from '../store/index.ts';

interface CurrencyRow {
  id: number;
  code: string;
  scale: number;
}

interface MarketRow {
  id: number;
  base_currency_id: number;
  quote_currency_id: number;
  price_scale: number;
  price_tick: bigint;
  lot_size: bigint;
  min_size: bigint;
  maker_fee_ppm: number;
  taker_fee_ppm: number;
}

export interface CatalogSubmitter {
  readonly engine: Engine;
  submit(command: Command): Promise<Outcome>;
}

/** The commands that would make the engine match the catalogue; empty when it already does. */
export function catalogCommands(engine: Engine, currencies: CurrencyRow[], markets: MarketRow[]): Command[] {
  const commands: Command[] = [];
  const scales = new Map<number, number>();
  for (const currency of currencies) {
    scales.set(currency.id, currency.scale);
    if (engine.ledger.currency(currency.id) === undefined)
      commands.push({
        type: 'addCurrency',
        currencyId: currency.id,
        code: currency.code,
        scale: currency.scale,
      });
  }
  for (const market of markets) {
    const baseScale = scales.get(market.base_currency_id);
    if (baseScale === undefined) throw new Error(`market ${market.id} refers to an unknown base currency`);
    const existing = engine.spot.market(market.id);
    if (existing === undefined) {
      commands.push({
        type: 'addMarket',
        marketId: market.id,
        baseCurrencyId: market.base_currency_id,
        quoteCurrencyId: market.quote_currency_id,
        tickSize: formatDecimal(market.price_tick, market.price_scale),
        lotSize: formatDecimal(market.lot_size, baseScale),
        minimumLots: Number(market.min_size / market.lot_size),
        makerFeePpm: market.maker_fee_ppm,
        takerFeePpm: market.taker_fee_ppm,
      });
    } else if (
      existing.makerFeePpm !== market.maker_fee_ppm ||
      existing.takerFeePpm !== market.taker_fee_ppm
    ) {
      commands.push({
        type: 'setMarketFees',
        marketId: market.id,
        makerFeePpm: market.maker_fee_ppm,
        takerFeePpm: market.taker_fee_ppm,
      });
    }
  }
  return commands;
}

/** Submits whatever the engine lacks of the catalogue and fails loudly if the engine refuses any of it. */
export async function syncEngineCatalog(
  store: Pick<Store, 'query'>,
  runner: CatalogSubmitter,
): Promise<number> {
  const currencies = (await store.query<CurrencyRow>('select id, code, scale from currencies order by id'))
    .rows;
  const markets = (
    await store.query<MarketRow>(
      `select id, base_currency_id, quote_currency_id, price_scale, price_tick, lot_size, min_size,
              maker_fee_ppm, taker_fee_ppm
         from markets order by id`,
    )
  ).rows;
  const commands = catalogCommands(runner.engine, currencies, markets);
  for (const command of commands) {
    const outcome = await runner.submit(command);
    if (outcome.code !== 0)
      throw new Error(`the engine refused ${command.type} from the catalogue (result code ${outcome.code})`);
  }
  return commands.length;
}
