// What a new exchange starts leverage with (docs/lever-calls.md, "Start"): applied once, when the engine
// has no lever pair yet, as journaled commands like every other configuration. Each market the catalogue
// marks lever_enabled is configured from its catalogue columns, with the threshold, liquidation fee and
// exposure limit below; with demo data, the house's lever wallet (which pays profits) and the insurance
// fund (which pays shortfalls) are funded from outside in the markets' quote currency, as journaled
// `systemFund` transfers with their memo. An operator changes all of it later in the back office.
import type { Command, Engine, Outcome } from '@fairex/engine';
import type { Queryable } from '../store/index.ts';
import { catalogLeverRows } from './settings.ts';
import { leverQueries } from './views.ts';

/** Spec 03 section 4: the template's default liquidation threshold, 10 % (1,000 bp). */
export const DEFAULT_THRESHOLD_BP = 1_000;
/** No liquidation fee unless an operator sets (and so discloses) one. */
export const DEFAULT_LIQUIDATION_FEE_PPM = 0;
/** The house's net exposure limit per pair: this many of the largest orders the pair takes. */
export const DEFAULT_EXPOSURE_LARGEST_ORDERS = 100;
/** Demo funding in whole units of the quote currency. */
export const DEMO_HOUSE_LEVER_UNITS = 1_000_000n;
export const DEMO_INSURANCE_UNITS = 100_000n;

export interface LeverSubmitter {
  readonly engine: Engine;
  submit(command: Command): Promise<Outcome>;
}

export async function defaultLeverCommands(
  engine: Engine,
  db: Queryable,
  fundDemo: boolean,
): Promise<Command[]> {
  const lever = leverQueries(engine);
  if (lever === undefined || lever.pairs().length > 0) return [];
  const commands: Command[] = [];
  const quotes = new Set<number>();
  for (const row of await catalogLeverRows(db)) {
    const market = engine.spot.market(row.marketId);
    if (market === undefined || !row.enabled || row.multiples.length === 0) continue;
    if (row.shareSize % market.lotBaseMinor !== 0n) continue;
    const lotsPerShare = Number(row.shareSize / market.lotBaseMinor);
    const largest = row.shareMax > 0 ? row.shareMax : 1_000;
    commands.push({
      type: 'setLeverPair',
      marketId: row.marketId,
      enabled: true,
      lotsPerShare,
      multiples: row.multiples,
      minShare: row.shareMin,
      maxShare: row.shareMax,
      spreadPpm: row.spreadPpm,
      feePpm: row.feePpm,
      overnightPpm: row.overnightPpm,
      liquidationThresholdBp: DEFAULT_THRESHOLD_BP,
      liquidationFeePpm: DEFAULT_LIQUIDATION_FEE_PPM,
      exposureLimitLots: largest * lotsPerShare * DEFAULT_EXPOSURE_LARGEST_ORDERS,
    });
    quotes.add(market.quoteCurrencyId);
  }
  if (fundDemo) {
    for (const currencyId of quotes) {
      const currency = engine.ledger.currency(currencyId);
      if (currency === undefined) continue;
      const unit = 10n ** BigInt(currency.scale);
      commands.push(
        {
          type: 'systemFund',
          owner: 'house',
          wallet: 'lever',
          currencyId,
          amount: DEMO_HOUSE_LEVER_UNITS * unit,
          memo: 'demo: the house lever wallet, which pays leverage profits',
        },
        {
          type: 'systemFund',
          owner: 'insurance',
          wallet: 'lever',
          currencyId,
          amount: DEMO_INSURANCE_UNITS * unit,
          memo: 'demo: the leverage insurance fund, which pays shortfalls',
        },
      );
    }
  }
  return commands;
}

export async function applyLeverDefaults(
  runner: LeverSubmitter,
  db: Queryable,
  fundDemo: boolean,
): Promise<number> {
  const commands = await defaultLeverCommands(runner.engine, db, fundDemo);
  for (const command of commands) {
    const outcome = await runner.submit(command);
    if (outcome.code !== 0)
      throw new Error(`the engine refused ${command.type} (result code ${outcome.code})`);
  }
  return commands.length;
}
