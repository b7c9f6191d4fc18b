// What a fresh installation publishes: the categories and the items, in display order. The words are in
// ./content/<language>.ts, one file per language with the same keys (the type checker holds them to it).
import type { NewsCategoryKind } from '../../store/schema/index.ts';
import { NewsCategoryId } from '../service.ts';

export interface SeedCategory {
  id: number;
  kind: NewsCategoryKind;
  sortOrder: number;
}

export const SEED_CATEGORIES = [
  { id: NewsCategoryId.notices, kind: 'notice', sortOrder: 1 },
  { id: NewsCategoryId.homeNews, kind: 'news', sortOrder: 2 },
  { id: NewsCategoryId.footerAbout, kind: 'footer', sortOrder: 10 },
  { id: NewsCategoryId.footerGuides, kind: 'footer', sortOrder: 11 },
  { id: NewsCategoryId.footerFees, kind: 'footer', sortOrder: 12 },
  { id: NewsCategoryId.footerRisk, kind: 'footer', sortOrder: 13 },
  { id: NewsCategoryId.footerLegal, kind: 'footer', sortOrder: 14 },
  { id: NewsCategoryId.faq, kind: 'faq', sortOrder: 20 },
  { id: NewsCategoryId.commitments, kind: 'commitment', sortOrder: 21 },
  { id: NewsCategoryId.builtWith, kind: 'partner', sortOrder: 22 },
] as const satisfies readonly SeedCategory[];

export type SeedCategoryId = (typeof SEED_CATEGORIES)[number]['id'];

export interface SeedItem {
  key: string;
  categoryId: SeedCategoryId;
  sortOrder: number;
  link?: string;
}

export const SEED_ITEMS = [
  { key: 'notice.welcome', categoryId: NewsCategoryId.notices, sortOrder: 1 },
  { key: 'notice.prices', categoryId: NewsCategoryId.notices, sortOrder: 2 },
  { key: 'notice.security', categoryId: NewsCategoryId.notices, sortOrder: 3 },

  { key: 'news.opening', categoryId: NewsCategoryId.homeNews, sortOrder: 1 },
  { key: 'news.seconds-settlement', categoryId: NewsCategoryId.homeNews, sortOrder: 2 },

  { key: 'about.fairex', categoryId: NewsCategoryId.footerAbout, sortOrder: 1 },
  { key: 'about.ledger', categoryId: NewsCategoryId.footerAbout, sortOrder: 2 },
  { key: 'guide.deposit', categoryId: NewsCategoryId.footerGuides, sortOrder: 1 },
  { key: 'guide.withdraw', categoryId: NewsCategoryId.footerGuides, sortOrder: 2 },
  { key: 'guide.spot-order', categoryId: NewsCategoryId.footerGuides, sortOrder: 3 },
  { key: 'fees.trading', categoryId: NewsCategoryId.footerFees, sortOrder: 1 },
  { key: 'fees.funding', categoryId: NewsCategoryId.footerFees, sortOrder: 2 },
  { key: 'risk.leverage', categoryId: NewsCategoryId.footerRisk, sortOrder: 1 },
  { key: 'risk.seconds', categoryId: NewsCategoryId.footerRisk, sortOrder: 2 },
  { key: 'legal.terms', categoryId: NewsCategoryId.footerLegal, sortOrder: 1 },
  { key: 'legal.privacy', categoryId: NewsCategoryId.footerLegal, sortOrder: 2 },

  { key: 'faq.what', categoryId: NewsCategoryId.faq, sortOrder: 1 },
  { key: 'faq.account', categoryId: NewsCategoryId.faq, sortOrder: 2 },
  { key: 'faq.deposit', categoryId: NewsCategoryId.faq, sortOrder: 3 },
  { key: 'faq.fees', categoryId: NewsCategoryId.faq, sortOrder: 4 },
  { key: 'faq.prices', categoryId: NewsCategoryId.faq, sortOrder: 5 },
  { key: 'faq.seconds', categoryId: NewsCategoryId.faq, sortOrder: 6 },
  { key: 'faq.leverage-loss', categoryId: NewsCategoryId.faq, sortOrder: 7 },

  { key: 'commitment.exact', categoryId: NewsCategoryId.commitments, sortOrder: 1 },
  { key: 'commitment.double-entry', categoryId: NewsCategoryId.commitments, sortOrder: 2 },
  { key: 'commitment.real-prices', categoryId: NewsCategoryId.commitments, sortOrder: 3 },
  { key: 'commitment.fair-outcomes', categoryId: NewsCategoryId.commitments, sortOrder: 4 },
  { key: 'commitment.open-source', categoryId: NewsCategoryId.commitments, sortOrder: 5 },

  {
    key: 'built.postgresql',
    categoryId: NewsCategoryId.builtWith,
    sortOrder: 1,
    link: 'https://www.postgresql.org/',
  },
  { key: 'built.nodejs', categoryId: NewsCategoryId.builtWith, sortOrder: 2, link: 'https://nodejs.org/' },
  { key: 'built.fastify', categoryId: NewsCategoryId.builtWith, sortOrder: 3, link: 'https://fastify.dev/' },
  { key: 'built.react', categoryId: NewsCategoryId.builtWith, sortOrder: 4, link: 'https://react.dev/' },
  { key: 'built.socketio', categoryId: NewsCategoryId.builtWith, sortOrder: 5, link: 'https://socket.io/' },
  { key: 'built.antd', categoryId: NewsCategoryId.builtWith, sortOrder: 6, link: 'https://ant.design/' },
] as const satisfies readonly SeedItem[];

export type SeedItemKey = (typeof SEED_ITEMS)[number]['key'];

/** Figures read from the catalogue when seeding, for the pages that quote them (fees). */
export interface SeedFacts {
  markets: { symbol: string; makerPercent: string; takerPercent: string }[];
  currencies: { code: string; name: string; networks: string[]; withdrawMin: string; withdrawFee: string }[];
}

export interface SeedText {
  title: string;
  abstract: string;
  /** HTML (sanitised when stored), or built from the catalogue's figures. */
  content: string | ((facts: SeedFacts) => string);
}

/** Everything one language says: category names and every item. */
export interface SeedLanguagePack {
  categories: Record<SeedCategoryId, string>;
  items: Record<SeedItemKey, SeedText>;
}
