import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  decimalMinor,
  decimalText,
  id,
  integer,
  issueMessage,
  note,
  oneOf,
  optional,
  page,
  text,
} from './fields.ts';

function firstIssue(schema: z.ZodType, input: unknown) {
  const result = schema.safeParse(input);
  if (result.success) throw new Error(`accepted ${JSON.stringify(input)}`);
  const issue = result.error.issues[0];
  if (!issue) throw new Error('no issue');
  return issueMessage(issue);
}

describe('field schemas', () => {
  const order = z.object({
    currency_id: id(),
    price: decimalMinor(2, { positive: true }),
    number: decimalText({ positive: true }),
    type: oneOf([1, 2] as const),
    note: optional(text({ max: 10 })),
    page: page(),
  });

  it('accepts form strings and JSON numbers alike', () => {
    expect(order.parse({ currency_id: '3', price: '10.5', number: '0.001', type: '2', page: '4' })).toEqual({
      currency_id: 3,
      price: 1050n,
      number: '0.001',
      type: 2,
      page: 4,
    });
    expect(order.parse({ currency_id: 3, price: 10.5, number: 0.001, type: 1, note: ' hi ' })).toEqual({
      currency_id: 3,
      price: 1050n,
      number: '0.001',
      type: 1,
      note: 'hi',
    });
  });

  it('treats empty optional fields as absent', () => {
    expect(order.parse({ currency_id: '1', price: '1', number: '1', type: '1', note: '', page: '' })).toEqual(
      {
        currency_id: 1,
        price: 100n,
        number: '1',
        type: 1,
      },
    );
  });

  it.each([
    [{}, 'currency_id', 'validation.required', {}],
    [{ currency_id: '' }, 'currency_id', 'validation.required', {}],
    [{ currency_id: 'abc' }, 'currency_id', 'validation.integer', {}],
    [{ currency_id: '0' }, 'currency_id', 'validation.integer_range', { min: 1, max: 2147483647 }],
    [{ currency_id: '99999999999' }, 'currency_id', 'validation.integer_range', { min: 1, max: 2147483647 }],
    [{ currency_id: 1.5 }, 'currency_id', 'validation.integer', {}],
    [{ currency_id: ['1'] }, 'currency_id', 'validation.integer', {}],
    [{ currency_id: { a: 1 } }, 'currency_id', 'validation.integer', {}],
  ])('reports %j as %s %s', (input, field, key, params) => {
    expect(firstIssue(order, input)).toEqual({ field, key, params });
  });

  it.each([
    ['1e3', 'validation.decimal', {}],
    ['-1', 'validation.decimal_negative', {}],
    ['+1', 'validation.decimal', {}],
    ['1.001', 'validation.decimal_scale', { scale: 2 }],
    ['0', 'validation.decimal_positive', {}],
    ['0.00', 'validation.decimal_positive', {}],
    ['99999999999999999999', 'validation.decimal_range', {}],
    [true, 'validation.decimal', {}],
    [Number.NaN, 'validation.decimal', {}],
  ])('reports price %j as %s', (price, key, params) => {
    expect(firstIssue(order, { currency_id: 1, price })).toEqual({ field: 'price', key, params });
  });

  it('names the allowed values of an enumeration', () => {
    expect(firstIssue(order, { currency_id: 1, price: '1', number: '1', type: '3' })).toEqual({
      field: 'type',
      key: 'validation.one_of',
      params: { values: '1, 2' },
    });
  });

  it('limits text length', () => {
    expect(firstIssue(z.object({ name: text({ min: 2, max: 3 }) }), { name: 'abcd' })).toEqual({
      field: 'name',
      key: 'validation.text_length',
      params: { min: 2, max: 3 },
    });
  });

  it('takes decimal text of any size an amount can have, and checks only its form', () => {
    const amount = decimalText({ positive: true });
    for (const text of ['150.5', '2000', '9.3', '123456789012345678901234567890.123456789012345678']) {
      expect(amount.parse(text)).toBe(text);
    }
    const refused = (value: unknown) => amount.safeParse(value).error?.issues[0]?.message;
    expect(refused('1' + '0'.repeat(36))).toBe('validation.decimal_range');
    expect(refused('0.0000000000000000001')).toBe('validation.decimal_scale');
    expect(refused('0')).toBe('validation.decimal_positive');
    expect(refused('1e3')).toBe('validation.decimal');
  });

  it('bounds integers', () => {
    const schema = z.object({ n: integer({ min: -5, max: 5 }) });
    expect(schema.parse({ n: '-5' })).toEqual({ n: -5 });
    expect(firstIssue(schema, { n: '6' }).key).toBe('validation.integer_range');
  });

  it('maps a body that is not an object to the body message', () => {
    expect(firstIssue(order, 'text')).toEqual({ field: '', key: 'validation.body', params: {} });
    expect(firstIssue(order, [1, 2])).toEqual({ field: '', key: 'validation.body', params: {} });
  });
});

describe('a note', () => {
  const schema = z.object({ note: note({ max: 20 }) });

  it('keeps line breaks and tabs inside, and trims the ends', () => {
    expect(schema.parse({ note: ' one\ntwo\r\n\tthree \n' })).toEqual({ note: 'one\ntwo\r\n\tthree' });
  });

  it('refuses any other control character', () => {
    for (const bad of [
      'be\u0007ll',
      'n\u0000ul',
      'v\u000bt',
      'f\u000cf',
      'e\u001bsc',
      'd\u007fel',
      'c\u00851',
    ]) {
      expect(firstIssue(schema, { note: bad }), JSON.stringify(bad)).toMatchObject({
        key: 'validation.control_character',
        field: 'note',
      });
    }
  });

  it('counts its length after trimming', () => {
    expect(firstIssue(schema, { note: 'x'.repeat(21) })).toMatchObject({ key: 'validation.text_length' });
    expect(firstIssue(schema, { note: ' \n\t ' })).toMatchObject({ key: 'validation.text_length' });
  });
});
