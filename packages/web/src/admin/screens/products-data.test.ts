import { describe, expect, it } from 'vitest';
import {
  adminDefiTermsInput,
  adminIcoTermsInput,
  adminMinerTermsInput,
  type AdminProductLine,
} from '@fairex/shared';
import { dayDate, dayNumber, nextDay, termsBody, termsValues, type TermsValues } from './products-data.ts';

const WINDOW = { start_time: Date.UTC(2026, 10, 26), end_time: Date.UTC(2026, 11, 26) };

describe('products back-office readers', () => {
  it('turns UTC day numbers and dates into each other', () => {
    expect(dayDate(0)).toBe('1970-01-01');
    expect(dayNumber('2026-11-26')).toBe(20_783);
    expect(dayDate(20_783)).toBe('2026-11-26');
    expect(dayNumber('26/11/2026')).toBeNull();
    expect(nextDay(Date.UTC(2026, 10, 26, 23, 59))).toBe(20_784);
  });

  it('builds each kind body the shared schema accepts, with only that kind fields', () => {
    const ico: TermsValues = {
      kind: 'ico',
      title: ' IEPN sale ',
      ...WINDOW,
      currency_id: 9,
      pay_currency_id: 3,
      total: 10_000,
      price: '0.125',
      per_user_cap: null,
      apr_bp: 500,
      logo: '',
    };
    const body = termsBody(ico);
    expect(body).toEqual({
      kind: 'ico',
      title: 'IEPN sale',
      ...WINDOW,
      total: 10_000,
      token_currency_id: 9,
      pay_currency_id: 3,
      price: '0.125',
    });
    expect(adminIcoTermsInput.safeParse(body).success).toBe(true);

    const miner = termsBody({
      kind: 'miner',
      title: 'S19',
      ...WINDOW,
      currency_id: 1,
      pay_currency_id: 3,
      total: 500,
      price: '100',
      fee_bp: 200,
      days: 30,
      rate_kind: 'fixed',
      earnings_min: '0.00001',
      earnings_max: '0.5',
      label: '100 TH/s',
    });
    expect(miner.earnings_max).toBe('0.00001');
    expect(adminMinerTermsInput.safeParse(miner).success).toBe(true);

    const defi = termsBody(
      {
        kind: 'defi',
        title: 'USDT 30',
        ...WINDOW,
        currency_id: 3,
        total: 100_000,
        days: 30,
        apr_bp: 1200,
        early_exit: 'none',
        price: '1',
      },
      5,
    );
    expect(defi).not.toHaveProperty('price');
    expect(defi.id).toBe(5);
    expect(adminDefiTermsInput.safeParse(defi).success).toBe(true);
  });

  it('starts the edit form from the product current terms', () => {
    const line = {
      id: 5,
      kind: 'defi',
      status: 'open',
      title: 'USDT 30',
      logo: '',
      white: '',
      image: '',
      label: 'Fixed term',
      description: '',
      ...WINDOW,
      created_time: 0,
      currency_id: 3,
      currency_name: 'USDT',
      pay_currency_id: null,
      pay_currency_name: null,
      total: '100000',
      sold: '0',
      remaining: '100000',
      price: null,
      fee_bp: null,
      days: 30,
      rate_kind: null,
      earnings_min: null,
      earnings_max: null,
      apr_bp: 1200,
      early_exit: 'forfeit',
      per_user_cap: '500',
      accrued_through: null,
      holdings: 0,
      house: {
        owner: 'house',
        wallet: 'defi',
        currency_id: 3,
        currency_name: 'USDT',
        reserved: '0',
        accrued_unpaid: '0',
      },
      reserve_required: '986.30',
      house_available: '0',
    } satisfies AdminProductLine;
    const values = termsValues(line);
    expect(values).toMatchObject({
      kind: 'defi',
      total: 100_000,
      per_user_cap: 500,
      apr_bp: 1200,
      early_exit: 'forfeit',
    });
    expect(adminDefiTermsInput.safeParse(termsBody(values, 5)).success).toBe(true);
  });
});
