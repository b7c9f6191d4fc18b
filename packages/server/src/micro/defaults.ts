// The configuration a new exchange starts with (docs/micro.md, "Configuration"): applied once, when the
// engine has no seconds options yet, as journaled commands like every other configuration. An operator
// changes it later with the same commands.
import type { Command, Engine, Outcome } from '@fairex/engine';

/** Seconds and profit ratios in basis points (1 % = 100). */
export const DEFAULT_MICRO_SECONDS: [number, number][] = [
  [30, 8_000],
  [60, 8_500],
  [120, 9_000],
  [300, 9_500],
];
/** The payable currency, by code, and its settings in whole units (scaled to the currency's minor units). */
export const DEFAULT_MICRO_CURRENCY = {
  code: 'USDT',
  feeBp: 100,
  min: 10n,
  max: 100_000n,
  presets: [10n, 50n, 100n, 500n, 1_000n],
  maxOpenOrders: 20,
  /** Cap of the house's worst-case payout per pair and expiry second. */
  exposureCap: 50_000n,
};

export interface MicroSubmitter {
  readonly engine: Engine;
  submit(command: Command): Promise<Outcome>;
}

/** The memos of the first start's reserve funding, as the journal and the back office show them. */
export const HOUSE_CAPITAL_MEMO = 'house capital for the micro reserve';
export const RESERVE_FUNDING_MEMO = 'micro reserve (first start)';

/**
 * The commands of the default configuration; empty once the engine has seconds options. `reserveUnits`
 * (MICRO_RESERVE, whole units of the payable currency) funds the house reserve the way an operator does in
 * the back office, from the house's own funds: the house's capital enters its change wallet from outside
 * (`systemFund`, like the market maker's genesis funding), then moves to its micro wallet, the reserve
 * (`systemTransfer`). 0 leaves the reserve empty, and every order is refused until an operator funds it.
 */
export function defaultMicroCommands(engine: Engine, reserveUnits = 0n): Command[] {
  if (engine.micro.config().seconds.length > 0) return [];
  const currency = engine.ledger
    .currencies()
    .find((candidate) => candidate.code === DEFAULT_MICRO_CURRENCY.code);
  if (currency === undefined) return [];
  const unit = 10n ** BigInt(currency.scale);
  const d = DEFAULT_MICRO_CURRENCY;
  const commands: Command[] = [
    { type: 'setMicroSeconds', options: DEFAULT_MICRO_SECONDS },
    {
      type: 'setMicroCurrency',
      currencyId: currency.currencyId,
      feeBp: d.feeBp,
      minStake: d.min * unit,
      maxStake: d.max * unit,
      presets: d.presets.map((preset) => preset * unit),
      maxOpenOrders: d.maxOpenOrders,
    },
  ];
  for (const market of engine.spot.markets())
    if (market.quoteCurrencyId === currency.currencyId)
      commands.push({
        type: 'setMicroExposureCap',
        marketId: market.marketId,
        currencyId: currency.currencyId,
        exposureCap: d.exposureCap * unit,
      });
  if (reserveUnits > 0n)
    commands.push(
      {
        type: 'systemFund',
        owner: 'house',
        currencyId: currency.currencyId,
        amount: reserveUnits * unit,
        memo: HOUSE_CAPITAL_MEMO,
      },
      {
        type: 'systemTransfer',
        owner: 'house',
        currencyId: currency.currencyId,
        fromWallet: 'change',
        toWallet: 'micro',
        amount: reserveUnits * unit,
        memo: RESERVE_FUNDING_MEMO,
      },
    );
  return commands;
}

export async function applyMicroDefaults(runner: MicroSubmitter, reserveUnits = 0n): Promise<number> {
  const commands = defaultMicroCommands(runner.engine, reserveUnits);
  for (const command of commands) {
    const outcome = await runner.submit(command);
    if (outcome.code !== 0)
      throw new Error(`the engine refused ${command.type} (result code ${outcome.code})`);
  }
  return commands.length;
}
