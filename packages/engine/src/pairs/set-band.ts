import type { CommandContext } from '../kernel/context.ts';
import { MAX_MARKET_BAND_PPM, MAX_MARKET_ID } from '../limits.ts';
import { ResultCode } from '../result-codes.ts';
import { isCount, isNatural } from '../validate.ts';
import { PairResultCode } from './codes.ts';
import type { SetMarketBandCommand } from './commands.ts';
import type { PairRegistry } from './registry.ts';

export function setPairBand(
  ctx: CommandContext,
  registry: PairRegistry,
  command: SetMarketBandCommand,
): number {
  if (!isCount(command.marketId, MAX_MARKET_ID)) return ResultCode.invalidId;
  const pair = registry.markets.get(command.marketId);
  if (pair === undefined) return ResultCode.marketNotFound;
  if (!isNatural(command.bandPpm, MAX_MARKET_BAND_PPM)) return PairResultCode.invalidBand;
  pair.bandPpm = command.bandPpm;
  ctx.emit({ type: 'marketBandChanged', marketId: pair.marketId, bandPpm: pair.bandPpm });
  return ResultCode.ok;
}
