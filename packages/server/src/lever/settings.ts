// The catalogue's leverage columns of the markets table (migration 0001): the lot presets the page offers
// as buttons, and the settings a market starts with. The engine holds the rules in force (setLeverPair);
// these are what the first start configures it with and what the back office keeps in step.
import type { Queryable } from '../store/index.ts';

export interface CatalogLeverRow {
  marketId: number;
  enabled: boolean;
  /** Base minor units per leveraged lot. */
  shareSize: bigint;
  shareMin: number;
  shareMax: number;
  sharePresets: number[];
  multiples: number[];
  spreadPpm: number;
  feePpm: number;
  overnightPpm: number;
}

function numbers(value: unknown): number[] {
  const list: unknown = typeof value === 'string' ? JSON.parse(value) : value;
  return Array.isArray(list) ? list.filter((item): item is number => Number.isSafeInteger(item)) : [];
}

export async function catalogLeverRows(db: Queryable): Promise<CatalogLeverRow[]> {
  const { rows } = await db.query<{
    id: number;
    lever_enabled: boolean;
    lever_share_size: string | number | bigint;
    lever_share_min: number;
    lever_share_max: number;
    lever_share_presets: unknown;
    lever_multiples: unknown;
    lever_spread_ppm: number;
    lever_fee_ppm: number;
    lever_overnight_ppm: number;
  }>(
    `select id, lever_enabled, lever_share_size, lever_share_min, lever_share_max, lever_share_presets,
            lever_multiples, lever_spread_ppm, lever_fee_ppm, lever_overnight_ppm
       from markets order by id`,
  );
  return rows.map((row) => ({
    marketId: Number(row.id),
    enabled: row.lever_enabled,
    shareSize: BigInt(row.lever_share_size),
    shareMin: Number(row.lever_share_min),
    shareMax: Number(row.lever_share_max),
    sharePresets: numbers(row.lever_share_presets),
    multiples: numbers(row.lever_multiples),
    spreadPpm: Number(row.lever_spread_ppm),
    feePpm: Number(row.lever_fee_ppm),
    overnightPpm: Number(row.lever_overnight_ppm),
  }));
}

/** Keeps the catalogue's columns in step with a setting the engine accepted. */
export async function updateCatalogLever(db: Queryable, row: CatalogLeverRow): Promise<void> {
  await db.query(
    `update markets set lever_enabled = $2, lever_share_size = $3, lever_share_min = $4, lever_share_max = $5,
            lever_share_presets = $6::jsonb, lever_multiples = $7::jsonb, lever_spread_ppm = $8,
            lever_fee_ppm = $9, lever_overnight_ppm = $10
      where id = $1`,
    [
      row.marketId,
      row.enabled,
      row.shareSize.toString(),
      row.shareMin,
      row.shareMax,
      JSON.stringify(row.sharePresets),
      JSON.stringify(row.multiples),
      row.spreadPpm,
      row.feePpm,
      row.overnightPpm,
    ],
  );
}
