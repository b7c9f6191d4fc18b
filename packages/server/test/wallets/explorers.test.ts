// The payout's explorer link in the withdrawal records: a public explorer page for a real transaction id of
// the withdrawal's chain, and no link for anything else (no id yet, a sandbox id, an unknown network).
import { describe, expect, it } from 'vitest';
import { explorerUrl } from '../../src/wallets/explorers.ts';

const HASH = 'a'.repeat(64);

describe('explorer links', () => {
  it.each([
    ['bitcoin', `https://mempool.space/tx/${HASH}`],
    ['ethereum', `https://etherscan.io/tx/${HASH}`],
    ['tron', `https://tronscan.org/#/transaction/${HASH}`],
    ['xrpl', `https://livenet.xrpl.org/transactions/${HASH}`],
  ])('links a %s payout to its explorer', (network, url) => {
    expect(explorerUrl(network, HASH)).toBe(url);
  });

  it('gives no link without a real transaction id or for an unknown network', () => {
    expect(explorerUrl('tron', null)).toBeNull();
    expect(explorerUrl('tron', 'sandbox-tx-1')).toBeNull();
    expect(explorerUrl('tron', `${HASH}/../x`)).toBeNull();
    expect(explorerUrl('moon', HASH)).toBeNull();
    expect(explorerUrl('ethereum', `0x${HASH}`)).toBe(`https://etherscan.io/tx/0x${HASH}`);
  });
});
