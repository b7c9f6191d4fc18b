// The journal's compact lines: an envelope its command's form can hold is written by position and read back
// exactly; anything the form cannot hold is written as JSON, and JSON lines (every journal written before the
// forms) still read. The decoder refuses any line the encoder would not have written.
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { decodeEnvelope, decodeEnvelopeBytes, encodeEnvelope } from '../src/index.ts';
import type { Command, Envelope } from '../src/index.ts';
import { codecFor } from '../src/codec.ts';
import { decodeCompact, journalFormsOf } from '../src/kernel/journal-form.ts';
import { toJsonValue } from '../src/kernel/json.ts';

const TOKEN_CHARS = 'abcXYZ0189_.:-';
const token = fc
  .array(fc.constantFrom(...TOKEN_CHARS), { minLength: 1, maxLength: 128 })
  .map((chars) => chars.join(''));
const safe = fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });
const amount = fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n });
const owner = fc.oneof(safe, fc.constantFrom('house', 'marketMaker', 'fees'));
const optional = <T>(value: fc.Arbitrary<T>) => fc.option(value, { nil: undefined });

/** Drops the fields whose value is undefined, as JSON would. */
function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
}

const placeOrder = fc.record({
  type: fc.constant('placeOrder' as const),
  owner,
  marketId: safe,
  side: fc.constantFrom('buy' as const, 'sell' as const),
  kind: fc.constantFrom('limit' as const, 'market' as const),
  priceTicks: optional(safe),
  quantityLots: safe,
  quoteAmountMax: optional(amount),
  clientOrderId: optional(token),
  timeInForce: optional(fc.constantFrom('gtc' as const, 'ioc' as const, 'fok' as const, 'postOnly' as const)),
  stopTicks: optional(safe),
});
const cancelOrder = fc.record({ type: fc.constant('cancelOrder' as const), owner, orderId: safe });
const cancelAll = fc.record({
  type: fc.constant('cancelAllOrders' as const),
  owner,
  marketId: optional(safe),
});
const deposit = fc.record({
  type: fc.constant('deposit' as const),
  userId: safe,
  currencyId: safe,
  amount,
  memo: optional(token),
});
const envelope = fc
  .record({
    seq: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
    timeMs: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
    idempotencyKey: optional(token),
    command: fc.oneof(placeOrder, cancelOrder, cancelAll, deposit),
  })
  .map((value) => defined({ ...value, command: defined(value.command) as Command }) as Envelope);

describe('compact journal lines', () => {
  it('write every order, cancel and deposit by position and read it back exactly', () => {
    fc.assert(
      fc.property(envelope, (value) => {
        const line = encodeEnvelope(value);
        expect(line.startsWith('~')).toBe(true);
        expect(line).not.toContain('\n');
        expect(decodeEnvelope(line)).toEqual(value);
        expect(encodeEnvelope(decodeEnvelope(line))).toBe(line);
      }),
      { numRuns: 2_000 },
    );
  });

  it('read back the same from bytes, each line where it lies among others', () => {
    fc.assert(
      fc.property(fc.array(envelope, { minLength: 1, maxLength: 8 }), (values) => {
        const lines = values.map((value) => encodeEnvelope(value));
        const bytes = new TextEncoder().encode(`${lines.join('\n')}\n`);
        let start = 0;
        for (const value of values) {
          const end = bytes.indexOf(0x0a, start);
          expect(decodeEnvelopeBytes(bytes, start, end)).toEqual(value);
          start = end + 1;
        }
      }),
      { numRuns: 500 },
    );
  });

  it('are a third of the JSON line', () => {
    const value: Envelope = {
      seq: 741_868,
      timeMs: 1_795_802_218_789,
      command: {
        type: 'placeOrder',
        owner: 1_000_118,
        marketId: 1,
        side: 'sell',
        kind: 'limit',
        priceTicks: 6_007_829,
        quantityLots: 36,
      },
    };
    const line = encodeEnvelope(value);
    expect(line).toBe('~p,741868,1795802218789,,1000118,1,1,0,6007829,36,,,,');
    expect(line.length * 3).toBeLessThan(JSON.stringify(toJsonValue(value)).length);
  });

  it('fall back to JSON for what a form cannot hold, which still reads back exactly', () => {
    const base = { seq: 5, timeMs: 9 };
    const order = {
      type: 'placeOrder',
      owner: 7,
      marketId: 1,
      side: 'buy',
      kind: 'limit',
      priceTicks: 10,
      quantityLots: 1,
    } as const;
    const cases: Envelope[] = [
      // A text outside the token alphabet, or empty.
      { ...base, command: { ...order, clientOrderId: 'has,comma' } },
      { ...base, command: { ...order, clientOrderId: 'line\nbreak' } },
      { ...base, command: { ...order, clientOrderId: '' } },
      { ...base, command: { ...order, clientOrderId: 'ünï' } },
      { ...base, idempotencyKey: 'key with spaces', command: order },
      { ...base, command: { type: 'deposit', userId: 1, currencyId: 3, amount: 5n, memo: 'two words' } },
      // Numbers that are not safe integers, and values of the wrong type.
      { ...base, command: { ...order, priceTicks: 1.5 } },
      { ...base, command: { ...order, quantityLots: 2 ** 60 } },
      { ...base, command: { ...order, owner: '12' as unknown as number } },
      { ...base, command: { ...order, side: 'sideways' as 'buy' } },
      { ...base, command: { ...order, quoteAmountMax: 5 as unknown as bigint } },
      // A field the form does not list, on the command or the envelope.
      { ...base, command: { ...order, note: 'x' } as unknown as Command },
      { ...base, extra: 1, command: order } as unknown as Envelope,
      // A command without a form.
      { ...base, command: { type: 'withdrawalApprove', withdrawalId: 3 } as unknown as Command },
    ];
    for (const value of cases) {
      const line = encodeEnvelope(value);
      expect(line.startsWith('{')).toBe(true);
      expect(decodeEnvelope(line)).toEqual(value);
      const bytes = new TextEncoder().encode(`x\n${line}\ny`);
      expect(decodeEnvelopeBytes(bytes, 2, bytes.length - 2)).toEqual(value);
    }
    // The durable log's bytes are UTF-8: any other byte is damage, not a character.
    expect(() => decodeEnvelopeBytes(new Uint8Array([0x7b, 0xff, 0x7d]), 0, 3)).toThrow(TypeError);
  });

  it('read JSON lines written before the forms existed', () => {
    const line =
      '{"seq":741865,"timeMs":1795802218789,"command":{"type":"placeOrder","owner":1000162,"marketId":1,' +
      '"side":"sell","kind":"limit","priceTicks":6007811,"quantityLots":50}}';
    expect(decodeEnvelope(line)).toEqual({
      seq: 741_865,
      timeMs: 1_795_802_218_789,
      command: {
        type: 'placeOrder',
        owner: 1_000_162,
        marketId: 1,
        side: 'sell',
        kind: 'limit',
        priceTicks: 6_007_811,
        quantityLots: 50,
      },
    });
    expect(
      decodeEnvelope(
        '{"seq":3,"timeMs":0,"command":{"type":"deposit","userId":1,"currencyId":3,"amount":"12"}}',
      ),
    ).toEqual({ seq: 3, timeMs: 0, command: { type: 'deposit', userId: 1, currencyId: 3, amount: 12n } });
  });

  it('refuse a line the encoder would not have written', () => {
    const good = '~c,5,9,,7,12';
    expect(decodeEnvelope(good)).toEqual({
      seq: 5,
      timeMs: 9,
      command: { type: 'cancelOrder', owner: 7, orderId: 12 },
    });
    for (const line of [
      '~c,5,9,,7', // a field too few
      '~c,5,9,,7,12,', // a field too many
      '~c,5,9,,7,12,13',
      '~c,05,9,,7,12', // a leading zero
      '~c,5,9,,7,-0', // a negative zero
      '~c,5,9,,7,+12', // a sign it is not written with
      '~c,5,9,,7,1e3',
      '~c,5,9,,7,12 ',
      '~c,5,9,,7,',
      '~c,5,9,,7,90071992547409930', // past the safe range
      '~c,5,9,a b,7,12', // a key outside the token alphabet
      '~c,5,9,,7Y,12', // an owner that is neither a number nor a name
      '~c,5,9,,-x,12',
      '~z,5,9,,7,12', // no form has the tag
      '~c5,9,,7,12',
      '~',
      '~p,1,1,,1,1,2,0,5,1,,,,', // an enum index past its values
      '~d,1,1,,1,3,12.5,', // an amount that is no integer
      '~c,5,9,kéy,7,12', // a character outside ASCII
      '~c,5,9,,7é,12',
      '~p,1,1,,1,1,0,0,5,1,,ordér,,', // a token with one
    ]) {
      expect(() => decodeEnvelope(line), line).toThrow(SyntaxError);
      // From bytes, with lines before and after it that are good.
      const bytes = new TextEncoder().encode(`${good}\n${line}\n${good}`);
      const start = good.length + 1;
      const end = bytes.indexOf(0x0a, start);
      expect(() => decodeEnvelopeBytes(bytes, start, end), line).toThrow(SyntaxError);
    }
  });

  it('are checked when an engine is made: one form per command type, tags unique', () => {
    const form = { type: 'a', tag: 'x', fields: [{ name: 'n', kind: 'int' as const }] };
    expect(() => journalFormsOf([form, { ...form, type: 'b' }])).toThrow(/share tag x/);
    expect(() => journalFormsOf([form, { ...form, tag: 'y' }])).toThrow(/two journal forms/);
    expect(() => journalFormsOf([{ ...form, tag: 'xy' }])).toThrow(/not one letter/);
    expect(() =>
      journalFormsOf([{ ...form, fields: [...form.fields, { name: 'n', kind: 'bigint' as const }] }]),
    ).toThrow(/twice/);
    // The product's areas pass.
    expect(() => codecFor([])).not.toThrow();
    const forms = journalFormsOf([form]);
    expect(decodeCompact('~x,1,2,,3', forms)).toEqual({ seq: 1, timeMs: 2, command: { type: 'a', n: 3 } });
    // A field name is written into the form's compiled reader: only plain identifiers.
    for (const name of ['a-b', 'a b', '__proto__', '1a', 'x;y']) {
      expect(() => journalFormsOf([{ ...form, fields: [{ name, kind: 'int' as const }] }])).toThrow(
        /not an identifier/,
      );
    }
  });

  it('read the same where code cannot be made (the generic reader)', () => {
    const form = {
      type: 'b',
      tag: 'y',
      fields: [
        { name: 'n', kind: 'int' as const },
        { name: 'm', kind: 'bigint' as const, optional: true },
        { name: 'e', kind: 'enum' as const, values: ['u', 'v'] },
      ],
    };
    const forms = journalFormsOf([form]);
    vi.stubGlobal('Function', function refused() {
      throw new EvalError('code generation from strings disallowed');
    });
    try {
      expect(decodeCompact('~y,1,2,k,3,,1', forms)).toEqual({
        seq: 1,
        timeMs: 2,
        idempotencyKey: 'k',
        command: { type: 'b', n: 3, e: 'v' },
      });
      expect(decodeCompact('~y,1,2,,3,12345678901234567890,0', forms).command).toEqual({
        type: 'b',
        n: 3,
        m: 12345678901234567890n,
        e: 'u',
      });
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
