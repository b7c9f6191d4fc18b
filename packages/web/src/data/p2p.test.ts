import { describe, expect, it } from 'vitest';
import { P2P_FIATS, P2P_METHODS, P2P_ORDER_STATUSES } from '@fairex/shared/api/p2p.ts';
import { FIATS, ORDER_STATUSES, PAYMENT_METHODS, orderImagePath } from './p2p.ts';

describe('the P2P data module', () => {
  it("repeats the contract's lists exactly (it may not import the contract's values)", () => {
    expect(FIATS).toEqual(P2P_FIATS);
    expect(PAYMENT_METHODS).toEqual(P2P_METHODS);
    expect(ORDER_STATUSES).toEqual(P2P_ORDER_STATUSES);
  });

  it('reads an order image at the address the server gave, or by its id', () => {
    expect(orderImagePath('/api/p2p/upload/image?id=abc')).toBe('/api/p2p/upload/image?id=abc');
    expect(orderImagePath('abc def')).toBe('/api/p2p/upload/image?id=abc%20def');
  });
});
