// The market-order price-protection band of each pair (issue 21): how far from the reference price (the
// mark, or the best opposite price without one) a market order may fill, in percent, 0 for none. It lives
// in the engine (a journaled setMarketBand command, part of the state) and is changed from the back office's
// settings screen like the fees, with an audit entry.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { decimalText, formatDecimal } from '@fairex/shared';
import { MAX_MARKET_BAND_PPM } from '@fairex/engine';
import { AppError } from '../http/app-error.ts';
import type { Actor } from './audit.ts';
import { recordChange } from './audit.ts';
import { amountAtScale, FEE_PERCENT_SCALE, listMarkets } from './catalog.ts';
import type { SettingDefinition } from './settings.ts';

const MAX_BAND_PERCENT = formatDecimal(BigInt(MAX_MARKET_BAND_PPM), FEE_PERCENT_SCALE, { trim: true });

function bandPercent(ppm: number): string {
  return formatDecimal(BigInt(ppm), FEE_PERCENT_SCALE, { trim: true });
}

export async function setMarketBand(
  app: FastifyInstance,
  actor: Actor,
  marketId: number,
  text: string,
): Promise<void> {
  const ppm = amountAtScale(text, FEE_PERCENT_SCALE, 'price_band');
  if (ppm > BigInt(MAX_MARKET_BAND_PPM)) {
    throw new AppError('backoffice.fee_too_high', { field: 'price_band', max: MAX_BAND_PERCENT });
  }
  const market = app.engine.market(marketId);
  if (market === undefined) throw new AppError('spot.market_not_found');
  if (BigInt(market.bandPpm) === ppm) throw new AppError('backoffice.nothing_changed');
  const outcome = await app.runner.submit({ type: 'setMarketBand', marketId, bandPpm: Number(ppm) });
  if (outcome.code !== 0) throw new AppError('backoffice.engine_refused', { code: outcome.code });
  await recordChange(app.store, actor, {
    action: 'market.price_band',
    targetType: 'market',
    targetId: marketId,
    before: { price_band: bandPercent(market.bandPpm) },
    after: { price_band: bandPercent(Number(ppm)) },
    detail: {},
  });
}

export const marketPriceBand: SettingDefinition<{ price_band?: string | undefined }> = {
  key: 'market.price_band',
  scope: 'market',
  engine: true,
  fields: [{ name: 'price_band', type: 'percent', max: MAX_BAND_PERCENT }],
  schema: z.object({ price_band: decimalText().optional() }).strict(),
  rows: async (app) =>
    (await listMarkets(app.store, app.engine)).map((market) => ({
      target_id: market.id,
      target: market.symbol,
      values: { price_band: bandPercent(app.engine.market(market.id)?.bandPpm ?? 0) },
    })),
  apply: async (app, actor, id, values) => {
    if (values.price_band === undefined) throw new AppError('backoffice.nothing_changed');
    await setMarketBand(app, actor, id, values.price_band);
  },
};
