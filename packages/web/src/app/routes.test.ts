import { describe, expect, it } from 'vitest';
import en from '../i18n/locales/en.json';
import { ROUTES, loginRedirectTarget, safeRedirectPath } from './routes.ts';

// Every path spec 02 section 2.1 lists, the routes spec 01 section 2 adds, the public price record, the
// transparency page (issue 42), and issue 21's API keys page.
const SPEC_PATHS = [
  '/',
  '/fiatradCenter',
  '/dealCenter',
  '/secondDealCenter',
  '/leverdealCenter',
  '/leverRecord',
  '/bindEmail',
  '/leverTransaction',
  '/leverList',
  '/transferRecord',
  '/success',
  '/components/login',
  '/forgetPwd',
  '/resetPwd',
  '/components/register',
  '/noticeList',
  '/upstart',
  '/components/noticeDetail',
  '/new_account',
  '/transferLegal',
  '/flash',
  '/recharge',
  '/withdrawal',
  '/withdraw_address',
  '/ico',
  '/miner',
  '/miner_earnings',
  '/miner_extract',
  '/defi',
  '/market',
  '/itemDetail',
  '/account',
  '/accountSet',
  '/chargeRecord',
  '/transferLog',
  '/userSetting',
  '/authentication',
  '/legalTrade',
  '/myLegalShops',
  '/register',
  '/allTransaction',
  '/leverTransactions',
  '/setCash',
  '/priceRecord',
  '/transparency',
  '/apiKeys',
  '/orders',
];

describe('route table', () => {
  it('declares every route of the specs exactly once', () => {
    const paths = ROUTES.map((route) => route.path);
    expect(new Set(paths).size).toBe(paths.length);
    expect([...paths].sort()).toEqual([...SPEC_PATHS].sort());
  });

  it('guards exactly /accountSet, /new_account, /apiKeys and /orders', () => {
    expect(
      ROUTES.filter((route) => route.guarded)
        .map((route) => route.path)
        .sort(),
    ).toEqual(['/accountSet', '/apiKeys', '/new_account', '/orders']);
  });

  it('names every route with a title that exists in the locale', () => {
    for (const route of ROUTES) expect(en.routes[route.titleKey]).toBeTruthy();
  });

  it('gives every route a screen, except the ones that only forward to another declared route', () => {
    const paths = new Set(ROUTES.map((route) => route.path));
    for (const route of ROUTES) {
      if (route.redirectTo === undefined) expect(typeof route.screen, route.path).toBe('function');
      else expect(paths.has(route.redirectTo), route.path).toBe(true);
    }
    expect(ROUTES.filter((route) => route.redirectTo !== undefined).map((route) => route.path)).toEqual([
      '/account',
    ]);
  });

  it('sends the visitor to the login prompt with the full path to come back to', () => {
    expect(loginRedirectTarget('/accountSet?tab=2')).toBe('/?login=1&redirect=%2FaccountSet%3Ftab%3D2');
  });

  it('accepts only same-site paths as redirect targets', () => {
    expect(safeRedirectPath('/new_account')).toBe('/new_account');
    expect(safeRedirectPath('//evil.example')).toBeNull();
    expect(safeRedirectPath('/\\evil.example')).toBeNull();
    expect(safeRedirectPath('https://evil.example')).toBeNull();
    expect(safeRedirectPath(null)).toBeNull();
  });
});
