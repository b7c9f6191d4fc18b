import type { Messages } from '../../i18n/index.ts';

export interface NavItem {
  to: string;
  labelKey: keyof Messages['nav'];
}

// The header's main navigation (spec 01 section 2). Links to screens that are not built yet lead to
// their declared route, which says so.
export const NAV_ITEMS: readonly NavItem[] = [
  { to: '/', labelKey: 'home' },
  { to: '/market', labelKey: 'markets' },
  { to: '/dealCenter', labelKey: 'spot' },
  { to: '/leverdealCenter', labelKey: 'leverage' },
  { to: '/secondDealCenter', labelKey: 'seconds' },
  { to: '/ico', labelKey: 'ico' },
  { to: '/miner', labelKey: 'mining' },
  { to: '/defi', labelKey: 'defi' },
];
