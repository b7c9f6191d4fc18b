import { describe, expect, it } from 'vitest';
import type { Network } from './addresses.ts';
import { NETWORKS } from './addresses.ts';
import { canonicalTxId } from './tx-ids.ts';

// Transaction ids in the form each chain's explorers print them.
const BITCOIN_GENESIS_COINBASE = '4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b';
const ETHEREUM_TX = '0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060';
const XRPL_TX = 'C53ECF838647FA5A4C780377025FEC7999AB4182590510CA461444B207AB74A9';
const TRON_TX = 'a8813cf4fb0e2db5ea7e2d9d3e2cc3d04b6f3b0bf5d4b3c1b8d7a2f7ec4a9f10';

describe('canonical transaction ids', () => {
  it.each<[Network, string, string[]]>([
    [
      'bitcoin',
      BITCOIN_GENESIS_COINBASE,
      [BITCOIN_GENESIS_COINBASE.toUpperCase(), ` ${BITCOIN_GENESIS_COINBASE} `],
    ],
    ['litecoin', BITCOIN_GENESIS_COINBASE, [BITCOIN_GENESIS_COINBASE.toUpperCase()]],
    [
      'dogecoin',
      BITCOIN_GENESIS_COINBASE,
      ['4A5E1E4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33B'],
    ],
    [
      'ethereum',
      ETHEREUM_TX,
      [ETHEREUM_TX.toUpperCase(), `0x${ETHEREUM_TX.slice(2).toUpperCase()}`, ETHEREUM_TX.slice(2)],
    ],
    ['tron', TRON_TX, [TRON_TX.toUpperCase(), `0x${TRON_TX}`, `0X${TRON_TX.toUpperCase()}`]],
    ['xrpl', XRPL_TX, [XRPL_TX.toLowerCase(), `${XRPL_TX.slice(0, 10).toLowerCase()}${XRPL_TX.slice(10)}`]],
  ])('gives one text for every spelling of a %s id', (network, canonical, spellings) => {
    expect(canonicalTxId(network, canonical)).toEqual({ ok: true, txId: canonical });
    for (const spelling of spellings)
      expect(canonicalTxId(network, spelling)).toEqual({ ok: true, txId: canonical });
  });

  it.each(NETWORKS)('refuses what is not a %s transaction id', (network) => {
    for (const bad of [
      '',
      'tx-1',
      BITCOIN_GENESIS_COINBASE.slice(1),
      `${BITCOIN_GENESIS_COINBASE}0`,
      `${BITCOIN_GENESIS_COINBASE.slice(1)}g`,
      `0x${BITCOIN_GENESIS_COINBASE.slice(2)}`.slice(0, 65),
      `${BITCOIN_GENESIS_COINBASE}\u0000`,
      '0x',
    ]) {
      expect(canonicalTxId(network, bad), JSON.stringify(bad)).toEqual({ ok: false });
    }
  });

  it('refuses a 0x before a hash on the chains that never write one', () => {
    for (const network of ['bitcoin', 'litecoin', 'dogecoin', 'xrpl'] as const) {
      expect(canonicalTxId(network, `0x${BITCOIN_GENESIS_COINBASE}`)).toEqual({ ok: false });
    }
  });
});
