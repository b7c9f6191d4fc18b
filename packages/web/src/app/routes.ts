import type { ComponentType } from 'react';
import type { Messages } from '../i18n/index.ts';

// The one table of every route the product has (spec 02 section 2.1 and spec 01 section 2).
//
// Every route points at its built screen (or only forwards to another path with `redirectTo`); there is
// no placeholder page for an unbuilt screen. A new route comes with its screen, as a lazy import here, and
// nothing else in the router changes. Unknown addresses get the translated 404 page.

export type RouteTitleKey = keyof Messages['routes'];

export type ScreenLoader = () => Promise<{ default: ComponentType }>;

interface RouteBase {
  /** Absolute path as the browser shows it. */
  path: string;
  /** Key under `routes.` in the locale files: the document title names the page with it. */
  titleKey: RouteTitleKey;
  /** Guarded routes send a visitor without a stored token to the login prompt. */
  guarded: boolean;
  /**
   * The screen uses only the core part of the messages (i18n/message-parts.ts), so its route does not load
   * the screens part; set on the trading and market screens, whose first download is budgeted.
   */
  coreMessagesOnly?: boolean;
}

/** A route that shows a page: its screen is required. */
export interface ScreenRoute extends RouteBase {
  /** Lazily loaded screen. */
  screen: ScreenLoader;
  redirectTo?: undefined;
}

/** A route that only forwards to another path. */
export interface RedirectRoute extends RouteBase {
  screen?: undefined;
  redirectTo: string;
}

export type RouteEntry = ScreenRoute | RedirectRoute;

const home: ScreenLoader = () => import('../features/home/HomePage.tsx');

function route(path: string, titleKey: RouteTitleKey, screen: ScreenLoader): ScreenRoute {
  return { path, titleKey, screen, guarded: false };
}

/** A route whose screen needs only the core messages (see `coreMessagesOnly`). */
function coreRoute(path: string, titleKey: RouteTitleKey, screen: ScreenLoader): ScreenRoute {
  return { ...route(path, titleKey, screen), coreMessagesOnly: true };
}

/** A route that forwards to another path, keeping its own title. */
function forward(path: string, titleKey: RouteTitleKey, redirectTo: string): RedirectRoute {
  return { path, titleKey, redirectTo, guarded: false };
}

function guardedRoute(path: string, titleKey: RouteTitleKey, screen: ScreenLoader): ScreenRoute {
  return { path, titleKey, screen, guarded: true };
}

export const ROUTES: readonly RouteEntry[] = [
  // Under the root layout (spec 02, 2.1).
  route('/', 'home', home),
  route('/fiatradCenter', 'fiatTradeCenter', () => import('../features/p2p/FiatCenterPage.tsx')),
  coreRoute('/dealCenter', 'spot', () => import('../features/spot/SpotPage.tsx')),
  route('/secondDealCenter', 'seconds', () => import('../features/micro/MicroPage.tsx')),
  route('/leverdealCenter', 'leverage', () => import('../features/lever/LeverPage.tsx')),
  route('/leverRecord', 'leverRecord', () => import('../features/lever/LeverHistoryPage.tsx')),
  route('/bindEmail', 'bindEmail', () => import('../features/auth/BindEmailPage.tsx')),
  route('/leverTransaction', 'leverFunds', () => import('../features/records/LeverLogPage.tsx')),
  route('/leverList', 'leverOrders', () => import('../features/lever/LeverListPage.tsx')),
  route('/transferRecord', 'fiatRecords', () => import('../features/p2p/TransferRecordPage.tsx')),
  route('/success', 'success', () => import('../features/success/SuccessPage.tsx')),
  // Top level (spec 02, 2.1).
  route('/components/login', 'login', () => import('../features/auth/LoginPage.tsx')),
  route('/forgetPwd', 'forgotPassword', () => import('../features/auth/ForgotPasswordPage.tsx')),
  route('/resetPwd', 'resetPassword', () => import('../features/auth/ForgotPasswordPage.tsx')),
  route('/components/register', 'register', () => import('../features/auth/RegisterPage.tsx')),
  route('/noticeList', 'notices', () => import('../features/news/NoticeListPage.tsx')),
  route('/upstart', 'upstart', () => import('../features/products/UpstartPage.tsx')),
  route('/components/noticeDetail', 'noticeDetail', () => import('../features/news/NoticeDetailPage.tsx')),
  guardedRoute('/new_account', 'assets', () => import('../features/assets/AssetsPage.tsx')),
  // The user's orders across all pairs (issue 21).
  guardedRoute('/orders', 'orders', () => import('../features/orders/OrdersPage.tsx')),
  route('/transferLegal', 'transfer', () => import('../features/transfer/TransferPage.tsx')),
  route('/flash', 'flash', () => import('../features/flash/FlashPage.tsx')),
  route('/recharge', 'deposit', () => import('../features/deposit/DepositPage.tsx')),
  route('/withdrawal', 'withdrawal', () => import('../features/withdrawal/WithdrawalPage.tsx')),
  route(
    '/withdraw_address',
    'withdrawAddresses',
    () => import('../features/address-book/AddressBookPage.tsx'),
  ),
  // Token sales, cloud mining and defi staking (issue 19, docs/products.md).
  route('/ico', 'ico', () => import('../features/products/IcoPage.tsx')),
  route('/miner', 'miner', () => import('../features/products/MinerPage.tsx')),
  route('/miner_earnings', 'minerEarnings', () =>
    import('../features/products/MinerRentPages.tsx').then((module) => ({
      default: module.MinerEarningsPage,
    })),
  ),
  route('/miner_extract', 'minerExtract', () =>
    import('../features/products/MinerRentPages.tsx').then((module) => ({
      default: module.MinerExtractPage,
    })),
  ),
  route('/defi', 'defi', () => import('../features/products/DefiPage.tsx')),
  coreRoute('/market', 'market', () => import('../features/market/MarketPage.tsx')),
  route('/priceRecord', 'priceRecord', () => import('../features/price-record/PriceRecordPage.tsx')),
  // The transparency log and the published liabilities, checked in the browser (issue 42).
  route('/transparency', 'transparency', () => import('../features/transparency/TransparencyPage.tsx')),
  route('/itemDetail', 'itemDetail', () => import('../features/news/ItemDetailPage.tsx')),
  // The account area; its children are absolute paths (spec 02, 2.1).
  forward('/account', 'account', '/accountSet'),
  guardedRoute('/accountSet', 'accountSettings', () => import('../features/account/AccountSetPage.tsx')),
  route('/chargeRecord', 'chargeRecord', () => import('../features/records/ChargeRecordPage.tsx')),
  route('/transferLog', 'tradeLog', () => import('../features/records/RecordsPage.tsx')),
  // The user's settings for P2P trade: the payment methods buyers pay to (issue 20).
  route('/userSetting', 'userSetting', () => import('../features/p2p/PaymentMethodsPage.tsx')),
  route('/authentication', 'authentication', () => import('../features/account/AuthenticationPage.tsx')),
  guardedRoute('/apiKeys', 'apiKeys', () => import('../features/account/ApiKeysPage.tsx')),
  // Legacy or hidden links (spec 02, 2.1) and the extra routes spec 01 section 2 names.
  route('/legalTrade', 'legalTrade', () => import('../features/p2p/LegalTradePage.tsx')),
  route('/myLegalShops', 'merchantShops', () => import('../features/p2p/MyShopsPage.tsx')),
  route('/register', 'register', () => import('../features/auth/RegisterPage.tsx')),
  route('/allTransaction', 'allTrades', () => import('../features/lever/AllTradesPage.tsx')),
  route('/leverTransactions', 'leverTrades', () => import('../features/lever/LeverTradesPage.tsx')),
  route('/setCash', 'setPassword', () => import('../features/auth/SetPasswordPage.tsx')),
];

/** The login prompt address a guard sends a visitor to; the login dialog reads these parameters. */
export function loginRedirectTarget(pathWithSearch: string): string {
  return `/?login=1&redirect=${encodeURIComponent(pathWithSearch)}`;
}

/** A redirect target from the address bar, accepted only when it is a path on this site. */
export function safeRedirectPath(value: string | null): string | null {
  if (value === null || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\'))
    return null;
  return value;
}
