import { describe, expect, it } from 'vitest';
import { adminImagePath, decideReady } from './p2p-data.ts';

describe('P2P back office readers', () => {
  it("reads an order image through the back office's own reader", () => {
    const id = '0123456789abcdef0123456789abcdef';
    expect(adminImagePath(`/api/p2p/upload/image?id=${id}`)).toBe(`/api/backoffice/p2p/image?id=${id}`);
    expect(adminImagePath(id)).toBe(`/api/backoffice/p2p/image?id=${id}`);
  });

  it('sends a decision only with a side, a reason of ten characters and a six-digit code', () => {
    expect(decideReady('buyer', 'Bank statement shows payment', '123456')).toBe(true);
    expect(decideReady(null, 'Bank statement shows payment', '123456')).toBe(false);
    expect(decideReady('seller', '  ten chars! ', '123456')).toBe(true);
    expect(decideReady('seller', ' short    ', '123456')).toBe(false);
    expect(decideReady('seller', 'Bank statement shows payment', '12345')).toBe(false);
    expect(decideReady('seller', 'Bank statement shows payment', '12345a')).toBe(false);
  });
});
