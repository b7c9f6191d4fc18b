import type { CommandContext } from '../kernel/context.ts';
import { MAX_MARKET_ID } from '../limits.ts';
import { ResultCode } from '../result-codes.ts';
import { isCount } from '../validate.ts';
import type { SetMarketFeesCommand } from './commands.ts';
import type { PairRegistry } from './registry.ts';
import { checkFees } from './spec.ts';

export function setPairFees(
  ctx: CommandContext,
  registry: PairRegistry,
  command: SetMarketFeesCommand,
): number {
  if (!isCount(command.marketId, MAX_MARKET_ID)) return ResultCode.invalidId;
  const pair = registry.markets.get(command.marketId);
  if (pair === undefined) return ResultCode.marketNotFound;
  const feeCode = checkFees(command.makerFeePpm, command.takerFeePpm);
  if (feeCode !== ResultCode.ok) return feeCode;
  pair.setFees(command.makerFeePpm, command.takerFeePpm);
  ctx.emit({
    type: 'marketFeesChanged',
    marketId: pair.marketId,
    makerFeePpm: pair.makerFeePpm,
    takerFeePpm: pair.takerFeePpm,
  });
  return ResultCode.ok;
}
