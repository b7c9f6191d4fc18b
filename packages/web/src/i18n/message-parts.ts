// The product's messages come in two parts per language. The screens part holds the sections only some
// screens use (the wallets' and the home page's, the largest); the core part holds everything else, which
// the shell and the trading screen need. A page loads the core at start and the screens part with any
// screen that is not listed as core-only, so the trading page's first download carries no wallet texts.
// The locale files stay whole for translators and tests; the build splits them (vite.config.ts).

/**
 * Top-level sections of the locale files that make up the screens part. The orders page's section is core:
 * the trading page's open orders name an order's type and status with its words (a waiting stop-limit).
 */
export const SCREEN_SECTIONS: readonly string[] = [
  'wallet',
  'home',
  'priceRecord',
  'transparency',
  'lever',
  'products',
  'p2p',
];

/** The module id under which the build serves one part of one language's messages. */
export const LOCALE_PART_PREFIX = 'virtual:fairex-messages/';
