// The market-order price-protection band of each pair (issue 21): how far from the reference price (the
// mark, or the best opposite price without one) a market order may fill, in percent, 0 for none. It lives
// in the engine (a journaled setMarketBand command, part of the state) and is changed from the back office's
// settings screen like the fees (settings.ts, market.price_band), with an audit entry.
import type { FastifyInstance } from 'fastify';
import { formatDecimal } from '@fairex/shared';
import { MAX_MARKET_BAND_PPM } from '@fairex/engine';
import { submitOrRefuse } from '../engine-runner/submit.ts';
import { AppError } from '../http/app-error.ts';
import type { Actor } from './audit-changes.ts';
import { recordChange } from './audit-changes.ts';
import { amountAtScale, FEE_PERCENT_SCALE } from './catalog.ts';

export const MAX_BAND_PERCENT = formatDecimal(BigInt(MAX_MARKET_BAND_PPM), FEE_PERCENT_SCALE, { trim: true });

export function bandPercent(ppm: number): string {
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
  const market = app.engine.spot.market(marketId);
  if (market === undefined) throw new AppError('spot.market_not_found');
  if (BigInt(market.bandPpm) === ppm) throw new AppError('backoffice.nothing_changed');
  await submitOrRefuse(app.runner, { type: 'setMarketBand', marketId, bandPpm: Number(ppm) });
  await recordChange(app.store, actor, {
    action: 'market.price_band',
    targetType: 'market',
    targetId: marketId,
    before: { price_band: bandPercent(market.bandPpm) },
    after: { price_band: bandPercent(Number(ppm)) },
    detail: {},
  });
}
