import type { CommandContext } from '../kernel/context.ts';
import { MAX_CURRENCY_CODE_LENGTH, MAX_CURRENCY_ID, MAX_CURRENCY_SCALE } from '../limits.ts';
import { ResultCode } from '../result-codes.ts';
import { isCount, isNatural } from '../validate.ts';
import type { AddCurrencyCommand } from './commands.ts';
import type { Ledger } from './ledger.ts';

const currencyCodePattern = /^[A-Z0-9]+$/;

export function addCurrency(ctx: CommandContext, ledger: Ledger, command: AddCurrencyCommand): number {
  const { currencyId, code, scale } = command;
  if (!isCount(currencyId, MAX_CURRENCY_ID)) return ResultCode.invalidId;
  if (typeof code !== 'string' || code.length > MAX_CURRENCY_CODE_LENGTH || !currencyCodePattern.test(code)) {
    return ResultCode.invalidCurrencyCode;
  }
  if (!isNatural(scale, MAX_CURRENCY_SCALE)) return ResultCode.invalidScale;
  if (ledger.currencies.has(currencyId)) return ResultCode.currencyExists;
  for (const currency of ledger.currencies.values()) {
    if (currency.code === code) return ResultCode.currencyExists;
  }
  ledger.currencies.set(currencyId, { currencyId, code, scale });
  ctx.emit({ type: 'currencyAdded', currencyId, code, scale });
  return ResultCode.ok;
}
