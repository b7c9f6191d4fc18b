// Seeds the public site's pages on first start: categories and items in all five languages. Idempotent and
// respectful of edits: a category or item is added only when missing (items are recognised by their seed
// key), and an existing one is never rewritten, so an operator's changes survive every restart.
import type { Language } from '@fairex/shared';
import { LANGUAGES } from '@fairex/shared';
import type { Queryable, Store } from '../../store/index.ts';
import type { NewsTranslationInput } from '../service.ts';
import { insertTranslations } from '../service.ts';
import { en } from './content/en.ts';
import { hk } from './content/hk.ts';
import { jp } from './content/jp.ts';
import { kr } from './content/kr.ts';
import { zh } from './content/zh.ts';
import { readSeedFacts } from './fees.ts';
import type { SeedLanguagePack } from './items.ts';
import { SEED_CATEGORIES, SEED_ITEMS } from './items.ts';

export const SEED_PACKS: Record<Language, SeedLanguagePack> = { en, zh, hk, kr, jp };

export interface NewsSeedResult {
  categories: number;
  items: number;
}

const ITEM_LINK = /\{\{item:([a-z0-9_.-]+)\}\}/g;

/** The address of an item's page, as links inside content and the footer use it. */
export function newsItemPath(id: number): string {
  return `/components/noticeDetail?id=${id}`;
}

/** Replaces {{item:key}} with the address of that seeded item's page. */
export function resolveItemLinks(html: string, ids: ReadonlyMap<string, number>): string {
  return html.replace(ITEM_LINK, (whole, key: string) => {
    const id = ids.get(key);
    if (id === undefined) throw new Error(`Seeded content links to unknown item "${key}"`);
    return newsItemPath(id);
  });
}

async function seedCategories(db: Queryable): Promise<number> {
  const { rowCount } = await db.query(
    `insert into news_categories (id, kind, names, sort_order)
     select id, kind, names::jsonb, sort_order
       from unnest($1::int[], $2::text[], $3::text[], $4::int[]) as c(id, kind, names, sort_order)
     on conflict (id) do nothing`,
    [
      SEED_CATEGORIES.map((category) => category.id),
      SEED_CATEGORIES.map((category) => category.kind),
      SEED_CATEGORIES.map((category) =>
        JSON.stringify(
          Object.fromEntries(LANGUAGES.map((lang) => [lang, SEED_PACKS[lang].categories[category.id]])),
        ),
      ),
      SEED_CATEGORIES.map((category) => category.sortOrder),
    ],
  );
  return rowCount;
}

/** Inserts the missing items and returns every seeded item's id and the keys that were new. */
async function seedItemRows(db: Queryable): Promise<{ ids: Map<string, number>; added: Set<string> }> {
  const { rows: inserted } = await db.query<{ seed_key: string }>(
    `insert into news_items (category_id, seed_key, link_url, sort_order)
     select category_id, seed_key, link_url, sort_order
       from unnest($1::int[], $2::text[], $3::text[], $4::int[]) as i(category_id, seed_key, link_url, sort_order)
     on conflict (seed_key) do nothing
     returning seed_key`,
    [
      SEED_ITEMS.map((item) => item.categoryId),
      SEED_ITEMS.map((item) => item.key),
      SEED_ITEMS.map((item) => ('link' in item ? item.link : null)),
      SEED_ITEMS.map((item) => item.sortOrder),
    ],
  );
  const { rows } = await db.query<{ id: number; seed_key: string }>(
    'select id, seed_key from news_items where seed_key = any($1::text[])',
    [SEED_ITEMS.map((item) => item.key)],
  );
  return {
    ids: new Map(rows.map((row) => [row.seed_key, row.id])),
    added: new Set(inserted.map((row) => row.seed_key)),
  };
}

export async function seedNews(store: Store): Promise<NewsSeedResult> {
  return store.transaction(async (tx) => {
    const categories = await seedCategories(tx);
    const { ids, added } = await seedItemRows(tx);
    if (added.size === 0) return { categories, items: 0 };
    const facts = await readSeedFacts(tx);
    const translations: { newsId: number; lang: Language; text: NewsTranslationInput }[] = [];
    for (const item of SEED_ITEMS) {
      if (!added.has(item.key)) continue;
      const newsId = ids.get(item.key);
      if (newsId === undefined) throw new Error(`Seeded item ${item.key} has no id`);
      for (const lang of LANGUAGES) {
        const text = SEED_PACKS[lang].items[item.key];
        const content = typeof text.content === 'function' ? text.content(facts) : text.content;
        translations.push({
          newsId,
          lang,
          text: { title: text.title, abstract: text.abstract, content: resolveItemLinks(content, ids) },
        });
      }
    }
    await insertTranslations(tx, translations);
    return { categories, items: added.size };
  });
}
