import type { Messages } from '../../i18n/index.ts';

/** A navigation label: a key of the `nav` section, or a route's title for the links added later. */
export type NavLabelKey = `nav.${keyof Messages['nav']}` | `routes.${keyof Messages['routes']}`;

export interface NavItem {
  to: string;
  /** The link's test id suffix (`nav-<name>`). */
  name: string;
  labelKey: NavLabelKey;
}

// The header's main navigation (spec 01 section 2). Links to screens that are not built yet lead to
// their declared route, which says so.
export const NAV_ITEMS: readonly NavItem[] = [
  { to: '/', name: 'home', labelKey: 'nav.home' },
  { to: '/market', name: 'markets', labelKey: 'nav.markets' },
  { to: '/dealCenter', name: 'spot', labelKey: 'nav.spot' },
  { to: '/leverdealCenter', name: 'leverage', labelKey: 'nav.leverage' },
  { to: '/secondDealCenter', name: 'seconds', labelKey: 'nav.seconds' },
  { to: '/fiatradCenter', name: 'fiat', labelKey: 'routes.legalTrade' },
  { to: '/ico', name: 'ico', labelKey: 'nav.ico' },
  { to: '/miner', name: 'mining', labelKey: 'nav.mining' },
  { to: '/defi', name: 'defi', labelKey: 'nav.defi' },
];
