// A memo is an operator's note or a reference: it may span lines and hold tabs, and no other control
// character; a refused memo changes nothing.
import { describe, expect, it } from 'vitest';
import { ResultCode } from '../src/index.ts';
import { QUOTE, TestExchange, stateWithoutCounters } from './test-exchange.ts';

describe('memos', () => {
  it('keeps line breaks and tabs', () => {
    const exchange = new TestExchange().setUpSimpleMarket();
    const memo = 'first line\nsecond line\r\n\tindented';
    exchange.ok({ type: 'systemFund', owner: 'house', currencyId: QUOTE, amount: 5n, memo });
    exchange.ok({ type: 'deposit', userId: 1, currencyId: QUOTE, amount: 5n, memo });
    expect(exchange.change('house', QUOTE)).toEqual([5n, 0n]);
  });

  it('refuses other control characters and changes nothing', () => {
    const exchange = new TestExchange().setUpSimpleMarket();
    const before = stateWithoutCounters(exchange.engine);
    for (const memo of ['', 'bell\u0007', 'nul\u0000', 'escape\u001b', 'del\u007f', 'x'.repeat(257)]) {
      const outcome = exchange.apply({
        type: 'systemFund',
        owner: 'house',
        currencyId: QUOTE,
        amount: 5n,
        memo,
      });
      expect(outcome.code, JSON.stringify(memo)).toBe(ResultCode.invalidMemo);
    }
    expect(stateWithoutCounters(exchange.engine)).toBe(before);
  });
});
