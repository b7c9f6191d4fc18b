import type {
  DefiItem,
  HouseAccountView,
  IcoItem,
  IepnInfo,
  MinerItem,
  MinerOrderInfo,
} from '@fairex/shared';

// Replies of the products calls as the contract shapes them, for the screens' tests.

const DAY = 86_400_000;
/**
 * The instant the fixtures are laid around: the start of the day the tests run (UTC). The screens compare
 * a product's dates with the clock, so fixtures laid around a fixed date would close their products once
 * that date passed.
 */
export const FIXTURE_NOW = Math.floor(Date.now() / DAY) * DAY;

function house(wallet: HouseAccountView['wallet'], currency: string, reserved: string): HouseAccountView {
  return { owner: 'house', wallet, currency_id: 1, currency_name: currency, reserved, accrued_unpaid: '0' };
}

export function icoItem(overrides: Partial<IcoItem> = {}): IcoItem {
  return {
    id: 7,
    ico_symbol: 'IEPN',
    ico_logo: '',
    ico_white: 'https://example.org/iepn.pdf',
    ico_has: '2500',
    ico_number: '10000',
    ico_price: '0.125000',
    ico_load: '25.00',
    end_day: 30,
    end_time: FIXTURE_NOW + 30 * DAY,
    hold_number: '40',
    hold_new_amount: '5.000000',
    hold_amount: '5.000000',
    hold_earnings: '0.000000',
    ico_currency: 'USDT',
    token_currency_id: 9,
    pay_currency_id: 3,
    sold: '2500',
    remaining: '7500',
    start_time: FIXTURE_NOW - DAY,
    per_user_cap: '1000',
    status: 'open',
    market_symbol: 'IEPN/USDT',
    house: house('ico', 'IEPN', '7500'),
    rule_text: 'Each token costs 0.125 USDT.',
    risk_text: 'Tokens may lose value.',
    ...overrides,
  };
}

export function iepnInfo(overrides: Partial<IepnInfo> = {}): IepnInfo {
  return {
    id: 7,
    symbol: 'IEPN',
    total: '10000',
    start: FIXTURE_NOW - DAY,
    end: FIXTURE_NOW + 30 * DAY,
    price: '0.125000',
    yfx: '2500',
    sy: '7500',
    pay_currency_name: 'USDT',
    market_symbol: 'IEPN/USDT',
    status: 'open',
    ...overrides,
  };
}

export function minerItem(overrides: Partial<MinerItem> = {}): MinerItem {
  return {
    id: 3,
    currency_name: 'BTC',
    currency_logo: '',
    miner_white: '',
    miner_image: '',
    miner_hashrate: '100 TH/s',
    miner_price: '100.00',
    miner_fee: '2',
    miner_earnings: '0.00001000',
    miner_earnings_show: '0.00001 BTC / unit / day',
    miner_earnings_range: '0.00000800 - 0.00001200',
    miner_day: 30,
    miner_number: '500',
    miner_status_lang: 'On sale',
    end_time: FIXTURE_NOW + 10 * DAY,
    end_load: '10.00',
    earnings_total: '0.00000000',
    earnings_extract: '0.00000000',
    product_id: 3,
    pay_currency_name: 'USDT',
    earn_currency_id: 1,
    rate_kind: 'recorded',
    earnings_min: '0.00000800',
    earnings_max: '0.00001200',
    sold: '50',
    remaining: '450',
    status: 'open',
    house: house('miner', 'BTC', '0.18000000'),
    rule_text: '',
    risk_text: '',
    ...overrides,
  };
}

export function minerInfo(overrides: Partial<MinerOrderInfo> = {}): MinerOrderInfo {
  return {
    miner_earnings_show: '0.00001 BTC / unit / day',
    miner_hashrate: '100 TH/s',
    miner_price: '100.00',
    miner_number: '3',
    miner_fee: '2',
    miner_earnings: '0.00001000',
    miner_earnings_range: '0.00000800 - 0.00001200',
    earnings_total: '0.00006000',
    earnings_extract: '0.00001000',
    end_day: 28,
    currency_name: 'BTC',
    id: 41,
    product_id: 3,
    pay_currency_name: 'USDT',
    rent: '300.00',
    fee_amount: '6.00',
    expected_daily: '0.00003000',
    total_income: '0.00007000',
    total_hashrate: '300 TH/s',
    days_accrued: 2,
    start_time: FIXTURE_NOW - DAY,
    end_time: FIXTURE_NOW + 28 * DAY,
    create_time: FIXTURE_NOW - 2 * DAY,
    rate_kind: 'recorded',
    rule_text: 'Recorded daily within the range.',
    ...overrides,
  };
}

export function defiItem(overrides: Partial<DefiItem> = {}): DefiItem {
  return {
    id: 5,
    currency_name: 'USDT',
    currency_logo: '',
    defi_white: '',
    defi_day: 30,
    defi_earnings: '12',
    create_time: Math.floor((FIXTURE_NOW - DAY) / 1000),
    defi_number: '0',
    earnings_total: '0',
    defi_coin: 3,
    type: 'Fixed term',
    status: 'open',
    end_time: FIXTURE_NOW + 60 * DAY,
    apr_bp: 1200,
    accrual_start: 'next_day',
    early_exit: 'forfeit',
    capacity: '100000',
    sold: '1200',
    remaining: '98800',
    per_user_cap: null,
    total: '0',
    stakes: [],
    house: house('defi', 'USDT', '986.30'),
    rule_text: '',
    risk_text: '',
    ...overrides,
  };
}
