import { describe, expect, it } from 'vitest';
import {
  custodySign,
  custodySignMatches,
  parseTrade,
  signedEnvelope,
  timestampMs,
  toMinorUnits,
} from './protocol.ts';

describe('custody protocol', () => {
  it('signs body + key + nonce + timestamp with md5 in lowercase hex', () => {
    // md5("The quick brown fox jumps over the lazy dog"), the RFC 1321 style example.
    expect(custodySign('The quick brown ', 'fox jumps', ' over the lazy', ' dog')).toBe(
      '9e107d9d372bb6826bd81d3542a419d6',
    );
  });

  it('checks a sign in either case and refuses anything else', () => {
    const sign = custodySign('{"a":1}', 'key', 'n1', '1700000000000');
    expect(custodySignMatches(sign, '{"a":1}', 'key', 'n1', '1700000000000')).toBe(true);
    expect(custodySignMatches(sign.toUpperCase(), '{"a":1}', 'key', 'n1', '1700000000000')).toBe(true);
    expect(custodySignMatches(sign, '{"a":2}', 'key', 'n1', '1700000000000')).toBe(false);
    expect(custodySignMatches(sign, '{"a":1}', 'other', 'n1', '1700000000000')).toBe(false);
    expect(custodySignMatches(sign, '{"a":1}', 'key', 'n2', '1700000000000')).toBe(false);
    expect(custodySignMatches(sign, '{"a":1}', 'key', 'n1', '1700000000001')).toBe(false);
    expect(custodySignMatches('xyz', '{"a":1}', 'key', 'n1', '1700000000000')).toBe(false);
  });

  it('makes signed envelopes its own check accepts', () => {
    const envelope = signedEnvelope('[{"x":1}]', 'key', 1_700_000_000_123);
    expect(envelope.timestamp).toBe('1700000000123');
    expect(custodySignMatches(envelope.sign, envelope.body, 'key', envelope.nonce, envelope.timestamp)).toBe(
      true,
    );
  });

  it('reads timestamps in milliseconds, or seconds when ten digits long', () => {
    expect(timestampMs('1700000000123')).toBe(1_700_000_000_123);
    expect(timestampMs('1700000000')).toBe(1_700_000_000_000);
    expect(timestampMs('-1')).toBeUndefined();
    expect(timestampMs('17e11')).toBeUndefined();
  });

  it('parses a trade with string or number fields', () => {
    const parsed = parseTrade(
      JSON.stringify({
        address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
        amount: '1500000',
        decimals: 6,
        fee: '0',
        mainCoinType: '195',
        coinType: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
        txId: 'abc',
        tradeId: '77',
        tradeType: 1,
        status: 3,
        businessId: '',
      }),
    );
    expect(parsed).toMatchObject({
      ok: true,
      trade: { amount: 1_500_000n, decimals: 6, tradeType: 1, status: 3 },
    });
  });

  it.each([
    ['not JSON', '{'],
    ['an array', '[]'],
    [
      'a negative amount',
      '{"address":"a","amount":"-5","decimals":6,"mainCoinType":"0","coinType":"0","tradeType":1,"status":3}',
    ],
    [
      'a decimal amount',
      '{"address":"a","amount":"1.5","decimals":6,"mainCoinType":"0","coinType":"0","tradeType":1,"status":3}',
    ],
    ['no address', '{"amount":"5","decimals":6,"mainCoinType":"0","coinType":"0","tradeType":1,"status":3}'],
    [
      'an unknown trade type',
      '{"address":"a","amount":"5","decimals":6,"mainCoinType":"0","coinType":"0","tradeType":3,"status":3}',
    ],
    [
      'an unsafe number',
      '{"address":"a","amount":12345678901234567890,"decimals":6,"mainCoinType":"0","coinType":"0","tradeType":1,"status":3}',
    ],
  ])('refuses %s', (_name, body) => {
    expect(parseTrade(body).ok).toBe(false);
  });

  it('converts to minor units and reports what a coarser currency cannot hold', () => {
    expect(toMinorUnits(1_500_000n, 6, 6)).toEqual({ minor: 1_500_000n, dust: 0n });
    expect(toMinorUnits(15n, 1, 8)).toEqual({ minor: 150_000_000n, dust: 0n });
    // 0.123456789012345678 ETH at scale 8.
    expect(toMinorUnits(123_456_789_012_345_678n, 18, 8)).toEqual({
      minor: 12_345_678n,
      dust: 9_012_345_678n,
    });
  });
});
