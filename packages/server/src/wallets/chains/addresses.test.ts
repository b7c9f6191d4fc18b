import { hex } from '@scure/base';
import { describe, expect, it } from 'vitest';
import type { Network } from './addresses.ts';
import { addressFromPublicKey, checkAddress } from './addresses.ts';

// The public key of private key 1 (the curve's generator G), the key behind many published vectors.
const G = hex.decode('0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798');

describe('addresses from a public key', () => {
  it.each<[Network, string]>([
    // BIP 173: the P2WPKH example is HASH160(G).
    ['bitcoin', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4'],
    // The well-known Ethereum address of private key 1.
    ['ethereum', '0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf'],
  ])('derives the published %s address of G', (network, expected) => {
    expect(addressFromPublicKey(network, G)).toBe(expected);
  });

  it('derives the XRP Ledger genesis account from its published public key', () => {
    const genesisKey = hex.decode('0330e7fc9d56bb25d6893ba3f317ae5bcf33b3291bd63db32654a313222f7fd020');
    expect(addressFromPublicKey('xrpl', genesisKey)).toBe('rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh');
  });

  it.each<Network>(['bitcoin', 'litecoin', 'dogecoin', 'ethereum', 'tron', 'xrpl'])(
    'derives %s addresses that its own checker accepts unchanged',
    (network) => {
      const address = addressFromPublicKey(network, G);
      expect(checkAddress(network, address)).toEqual({ ok: true, address });
    },
  );

  it('gives TRON the Ethereum account hash under its own prefix', () => {
    const tron = addressFromPublicKey('tron', G);
    expect(tron).toMatch(/^T/);
    expect(tron).toHaveLength(34);
  });

  it('refuses a key that is not a compressed public key', () => {
    expect(() => addressFromPublicKey('bitcoin', new Uint8Array(65))).toThrow(RangeError);
  });
});

describe('withdrawal address checks', () => {
  it.each<[Network, string, string?]>([
    ['bitcoin', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa'],
    ['bitcoin', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2'],
    ['bitcoin', '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy'],
    // BIP 173 and BIP 350 test vectors; upper case is valid and stored in lower case.
    ['bitcoin', 'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4'],
    ['bitcoin', 'bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3'],
    ['bitcoin', 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0'],
    // EIP-55 test vectors; a one-case address carries no checksum and is stored checksummed.
    ['ethereum', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'],
    ['ethereum', '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359'],
    ['ethereum', '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB'],
    ['ethereum', '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb'],
    ['ethereum', '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'],
    // The USDT TRC20 contract and the XRP Ledger genesis account.
    ['tron', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'],
    ['xrpl', 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh'],
    ['xrpl', 'rrrrrrrrrrrrrrrrrrrrrhoLvTp'],
    ['dogecoin', 'DDogepartyxxxxxxxxxxxxxxxxxxw1dfzr'],
    ['dogecoin', 'DH5yaieqoZN36fDVciNyRueRGvGLR3mr7L'],
    ['litecoin', 'LM2WMpR1Rp6j3Sa59cMXMs1SPzj9eXpGc1'],
    ['litecoin', 'MQMcJhpWHYVeQArcZR3sBgyPZxxRtnH441'],
    ['litecoin', 'ltc1qg42tkwuuxefutzxezdkdel39gfstuap288mfea'],
  ])('accepts %s %s', (network, address, canonical) => {
    expect(checkAddress(network, ` ${address} `)).toEqual({ ok: true, address: canonical ?? address });
  });

  it.each<[Network, string, 'format' | 'checksum']>([
    ['bitcoin', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb', 'checksum'],
    ['bitcoin', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5', 'checksum'],
    // BIP 350: a version 1 program with a bech32 (not bech32m) checksum is invalid.
    ['bitcoin', 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd', 'checksum'],
    ['bitcoin', 'bc1qW508d6qejxtdg4c5r3zarvary0c5xw7kv8f3t4', 'format'],
    ['bitcoin', 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx', 'format'],
    ['bitcoin', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', 'format'],
    ['bitcoin', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', 'format'],
    ['bitcoin', '', 'format'],
    ['bitcoin', '1A1zP1eP5QGefi2D MPTfTL5SLmv7DivfNa', 'format'],
    ['ethereum', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD', 'checksum'],
    ['ethereum', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe', 'format'],
    ['ethereum', '5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', 'format'],
    ['ethereum', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', 'format'],
    ['tron', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u', 'checksum'],
    ['tron', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', 'format'],
    ['tron', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', 'format'],
    ['xrpl', 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTi', 'checksum'],
    ['xrpl', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', 'format'],
    ['dogecoin', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', 'format'],
    ['litecoin', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', 'format'],
  ])('refuses %s %s (%s)', (network, address, problem) => {
    expect(checkAddress(network, address)).toEqual({ ok: false, problem });
  });

  it('refuses over-long input without decoding it', () => {
    expect(checkAddress('bitcoin', `bc1q${'q'.repeat(200)}`)).toEqual({ ok: false, problem: 'format' });
  });
});
