// The market maker's settings per pair, as the back office shows and changes them: on or off, levels per
// side, half spread, step between levels, value of the first level, and how far the last price may drift
// from the index before the house trades to follow it. Stored in market_maker_settings (only what an
// administrator changed; the rest is the server's configuration), audited, and read by the market maker at
// its next cycle (within a second). The market maker trades through the engine like any user, so these
// settings change no money rule and need no engine command.
import { formatDecimal } from '@fairex/shared';
import { AppError } from '../http/app-error.ts';
import type { MarketMakerConfig, MarketMakerPairSettings } from '../market/market-maker.ts';
import { loadPairSettings, pairConfig } from '../market/market-maker.ts';
import type { Queryable, Store } from '../store/index.ts';
import type { Actor } from './audit-changes.ts';
import { changedFields, recordChange } from './audit-changes.ts';
import { amountAtScale, FEE_PERCENT_SCALE } from './catalog.ts';

/** Rates are entered as percent with up to four decimals (one part per million), above 0 and at most this. */
export const MAX_MAKER_PERCENT = '10';
const MAX_MAKER_PPM = 100_000;
export const MAX_MAKER_LEVELS = 50;

export type MarketMakerValues = {
  enabled: boolean;
  levels: number;
  half_spread: string;
  level_step: string;
  level_notional: string;
};

export type MarketMakerUpdate = {
  enabled?: boolean | undefined;
  levels?: number | undefined;
  half_spread?: string | undefined;
  level_step?: string | undefined;
  level_notional?: string | undefined;
};

interface PairRow {
  id: number;
  symbol: string;
  quote_scale: number;
}

const percent = (ppm: number) => formatDecimal(BigInt(ppm), FEE_PERCENT_SCALE, { trim: true });

/** The values in force for a pair: the server's configuration with the pair's stored settings. */
export function effectiveValues(
  config: MarketMakerConfig,
  pair: MarketMakerPairSettings | undefined,
): MarketMakerValues {
  const effective = pairConfig(config, pair);
  return {
    enabled: pair?.enabled ?? true,
    levels: effective.levels,
    half_spread: percent(effective.halfSpreadPpm),
    level_step: percent(effective.levelStepPpm),
    level_notional: effective.levelNotional,
  };
}

async function pairRows(db: Queryable, id?: number): Promise<PairRow[]> {
  const { rows } = await db.query<PairRow>(
    `select m.id, m.symbol, q.scale as quote_scale
       from markets m join currencies q on q.id = m.quote_currency_id
      ${id === undefined ? '' : 'where m.id = $1'}
      order by m.display_order, m.id`,
    id === undefined ? [] : [id],
  );
  return rows;
}

/** Every pair with the market maker's values in force, and the quote currency's scale for the level value. */
export async function listMarketMakerSettings(
  store: Pick<Store, 'query'>,
  config: MarketMakerConfig,
): Promise<{ id: number; symbol: string; quoteScale: number; values: MarketMakerValues }[]> {
  const stored = await loadPairSettings(store);
  return (await pairRows(store)).map((row) => ({
    id: row.id,
    symbol: row.symbol,
    quoteScale: row.quote_scale,
    values: effectiveValues(config, stored.get(row.id)),
  }));
}

function ratePpm(text: string, field: string): number {
  const ppm = amountAtScale(text, FEE_PERCENT_SCALE, field);
  if (ppm < 1n || ppm > BigInt(MAX_MAKER_PPM)) {
    throw new AppError('backoffice.percent_range', { field, max: MAX_MAKER_PERCENT });
  }
  return Number(ppm);
}

/** Validates and stores a change of one pair's settings, with its audit entry, in one transaction. */
export async function updateMarketMakerSettings(
  store: Store,
  config: MarketMakerConfig,
  actor: Actor,
  marketId: number,
  update: MarketMakerUpdate,
): Promise<MarketMakerValues> {
  if (
    update.levels !== undefined &&
    (!Number.isSafeInteger(update.levels) || update.levels < 1 || update.levels > MAX_MAKER_LEVELS)
  ) {
    throw new AppError('validation.integer_range', { field: 'levels', min: 1, max: MAX_MAKER_LEVELS });
  }
  const halfSpreadPpm =
    update.half_spread === undefined ? undefined : ratePpm(update.half_spread, 'half_spread');
  const levelStepPpm = update.level_step === undefined ? undefined : ratePpm(update.level_step, 'level_step');
  return store.transaction(async (tx) => {
    const [pair] = await pairRows(tx, marketId);
    if (pair === undefined) throw new AppError('spot.market_not_found');
    let levelNotional: string | undefined;
    if (update.level_notional !== undefined) {
      const minor = amountAtScale(update.level_notional, pair.quote_scale, 'level_notional');
      if (minor <= 0n) throw new AppError('validation.decimal_positive', { field: 'level_notional' });
      levelNotional = formatDecimal(minor, pair.quote_scale, { trim: true });
    }
    await tx.query('select pg_advisory_xact_lock(hashtext($1))', [`market_maker_settings:${marketId}`]);
    const current = (await loadPairSettings(tx)).get(marketId);
    const before = effectiveValues(config, current);
    const next: MarketMakerPairSettings = {
      ...current,
      enabled: update.enabled ?? current?.enabled ?? true,
      ...(update.levels === undefined ? {} : { levels: update.levels }),
      ...(halfSpreadPpm === undefined ? {} : { halfSpreadPpm }),
      ...(levelStepPpm === undefined ? {} : { levelStepPpm }),
      ...(levelNotional === undefined ? {} : { levelNotional }),
    };
    const after = effectiveValues(config, next);
    const changed = changedFields(before, after);
    if (Object.keys(changed.after).length === 0) throw new AppError('backoffice.nothing_changed');
    await tx.query(
      `insert into market_maker_settings
              (market_id, enabled, levels, half_spread_ppm, level_step_ppm, level_notional)
       values ($1, $2, $3, $4, $5, $6)
       on conflict (market_id) do update set
              enabled = excluded.enabled, levels = excluded.levels, half_spread_ppm = excluded.half_spread_ppm,
              level_step_ppm = excluded.level_step_ppm, level_notional = excluded.level_notional,
              updated_at = now()`,
      [
        marketId,
        next.enabled,
        next.levels ?? null,
        next.halfSpreadPpm ?? null,
        next.levelStepPpm ?? null,
        next.levelNotional ?? null,
      ],
    );
    await recordChange(tx, actor, {
      action: 'market.market_maker',
      targetType: 'market',
      targetId: marketId,
      before: changed.before,
      after: changed.after,
      detail: { symbol: pair.symbol },
    });
    return after;
  });
}
