// Reading and writing news items. Readers get each item in their language, or in English when that
// translation is missing (then in whatever language exists). Writers go through saveNewsItem, which
// sanitises the HTML, so nothing unclean is ever stored.
import type { Language, NewsCategoryView, NewsDetailReply, NewsListEntry } from '@fairex/shared';
import { DEFAULT_LANGUAGE, LANGUAGES } from '@fairex/shared';
import type { Queryable } from '../store/index.ts';
import type { LocalizedText, NewsCategoryKind } from '../store/schema/index.ts';
import { cleanPlainText, sanitizeNewsHtml } from './sanitize.ts';

/** The category ids the specifications fix (spec 01 section 7) and the product's own from 30 up. */
export const NewsCategoryId = {
  notices: 3,
  homeNews: 5,
  footerAbout: 9,
  footerGuides: 10,
  footerFees: 19,
  footerRisk: 21,
  footerLegal: 29,
  faq: 30,
  commitments: 31,
  builtWith: 32,
} as const;

export const FOOTER_CATEGORY_IDS = [
  NewsCategoryId.footerAbout,
  NewsCategoryId.footerGuides,
  NewsCategoryId.footerFees,
  NewsCategoryId.footerRisk,
  NewsCategoryId.footerLegal,
] as const;

interface ItemRow {
  id: number;
  category_id: number;
  link_url: string | null;
  title: string;
  abstract: string;
  content?: string;
  lang: Language;
  updated_at: Date;
}

/** The item's translation in $2, else English, else any: one row per item. */
const TRANSLATION_LATERAL = `
  cross join lateral (
    select tr.lang, tr.title, tr.abstract, tr.content, tr.updated_at
      from news_translations tr
     where tr.news_id = i.id
     order by (tr.lang = $2) desc, (tr.lang = '${DEFAULT_LANGUAGE}') desc, tr.lang
     limit 1
  ) t`;

function localized(names: LocalizedText, lang: Language): string {
  return names[lang] ?? names[DEFAULT_LANGUAGE] ?? Object.values(names).find((name) => name) ?? '';
}

function updateTime(item: Date, translation: Date): string {
  return new Date(Math.max(item.getTime(), translation.getTime())).toISOString();
}

export async function findCategory(
  db: Queryable,
  categoryId: number,
  lang: Language,
): Promise<NewsCategoryView | null> {
  const { rows } = await db.query<{ id: number; kind: NewsCategoryKind; names: LocalizedText }>(
    'select id, kind, names from news_categories where id = $1 and is_visible',
    [categoryId],
  );
  const row = rows[0];
  return row ? { id: row.id, kind: row.kind, name: localized(row.names, lang) } : null;
}

export interface ListNewsOptions {
  categoryId: number;
  lang: Language;
  page: number;
  perPage: number;
  withContent: boolean;
}

/** One page of a category's published items, in display order (sort order, then newest first). */
export async function listNews(
  db: Queryable,
  options: ListNewsOptions,
): Promise<{ items: NewsListEntry[]; total: number }> {
  const offset = (options.page - 1) * options.perPage;
  const { rows } = await db.query<ItemRow & { item_updated_at: Date }>(
    `select i.id, i.category_id, i.link_url, i.updated_at as item_updated_at,
            t.lang, t.title, t.abstract, ${options.withContent ? 't.content,' : ''} t.updated_at
       from news_items i ${TRANSLATION_LATERAL}
      where i.category_id = $1 and i.is_published
      order by i.sort_order, i.id desc
      limit $3 offset $4`,
    [options.categoryId, options.lang, options.perPage, offset],
  );
  const { rows: counted } = await db.query<{ total: number }>(
    'select count(*)::int as total from news_items where category_id = $1 and is_published',
    [options.categoryId],
  );
  const items = rows.map((row) => {
    const entry: NewsListEntry = {
      id: row.id,
      c_id: row.category_id,
      title: row.title,
      abstract: row.abstract,
      update_time: updateTime(row.item_updated_at, row.updated_at),
      link: row.link_url,
    };
    if (options.withContent) entry.content = row.content ?? '';
    return entry;
  });
  return { items, total: counted[0]?.total ?? 0 };
}

/** A published item of a visible category, in the reader's language (or the fallback), or null. */
export async function getNews(db: Queryable, id: number, lang: Language): Promise<NewsDetailReply | null> {
  const { rows } = await db.query<ItemRow & { item_updated_at: Date }>(
    `select i.id, i.category_id, i.link_url, i.updated_at as item_updated_at,
            t.lang, t.title, t.abstract, t.content, t.updated_at
       from news_items i
       join news_categories c on c.id = i.category_id and c.is_visible
       ${TRANSLATION_LATERAL}
      where i.id = $1 and i.is_published`,
    [id, lang],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    id: row.id,
    c_id: row.category_id,
    title: row.title,
    abstract: row.abstract,
    content: row.content ?? '',
    update_time: updateTime(row.item_updated_at, row.updated_at),
    link: row.link_url,
    lang: row.lang,
  };
}

export interface CategoryWithTitles extends NewsCategoryView {
  list: { id: number; title: string }[];
}

/** Several categories with the titles of their items (the footer's link columns), in category order. */
export async function listCategoriesWithTitles(
  db: Queryable,
  categoryIds: readonly number[],
  lang: Language,
  perCategory: number,
): Promise<CategoryWithTitles[]> {
  const { rows: categories } = await db.query<{ id: number; kind: NewsCategoryKind; names: LocalizedText }>(
    `select id, kind, names from news_categories
      where id = any($1::int[]) and is_visible
      order by sort_order, id`,
    [categoryIds],
  );
  if (categories.length === 0) return [];
  const { rows } = await db.query<{ id: number; category_id: number; title: string }>(
    `select id, category_id, title from (
       select i.id, i.category_id, t.title, i.sort_order,
              row_number() over (partition by i.category_id order by i.sort_order, i.id desc) as position
         from news_items i ${TRANSLATION_LATERAL}
        where i.category_id = any($1::int[]) and i.is_published
     ) ranked
     where position <= $3
     order by category_id, sort_order, id desc`,
    [categories.map((category) => category.id), lang, perCategory],
  );
  return categories.map((category) => ({
    id: category.id,
    kind: category.kind,
    name: localized(category.names, lang),
    list: rows
      .filter((row) => row.category_id === category.id)
      .map((row) => ({ id: row.id, title: row.title })),
  }));
}

export interface NewsTranslationInput {
  title: string;
  abstract?: string;
  content?: string;
}

export interface SaveNewsItemInput {
  categoryId: number;
  seedKey?: string;
  linkUrl?: string | null;
  sortOrder?: number;
  translations: Partial<Record<Language, NewsTranslationInput>>;
}

/**
 * Writes a new item with its translations, HTML sanitised, and returns its id. With a seed key that
 * already exists nothing is written and null comes back: a seeded item is added once and never overwritten.
 */
export async function insertNewsItem(db: Queryable, input: SaveNewsItemInput): Promise<number | null> {
  const { rows } = await db.query<{ id: number }>(
    `insert into news_items (category_id, seed_key, link_url, sort_order)
     values ($1, $2, $3, $4)
     on conflict (seed_key) do nothing
     returning id`,
    [input.categoryId, input.seedKey ?? null, input.linkUrl ?? null, input.sortOrder ?? 0],
  );
  const id = rows[0]?.id;
  if (id === undefined) return null;
  for (const lang of LANGUAGES) {
    const translation = input.translations[lang];
    if (translation) await upsertTranslation(db, id, lang, translation);
  }
  return id;
}

/** Adds translations in one statement (HTML sanitised); a language an item already has is left as it is. */
export async function insertTranslations(
  db: Queryable,
  translations: readonly { newsId: number; lang: Language; text: NewsTranslationInput }[],
): Promise<void> {
  const cleaned = translations.map(({ newsId, lang, text }) => {
    const title = cleanPlainText(text.title);
    if (title === '') throw new RangeError(`news item ${newsId} (${lang}) needs a title`);
    return [
      newsId,
      lang,
      title,
      cleanPlainText(text.abstract ?? ''),
      sanitizeNewsHtml(text.content ?? ''),
    ] as const;
  });
  await db.query(
    `insert into news_translations (news_id, lang, title, abstract, content)
     select * from unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[])
     on conflict (news_id, lang) do nothing`,
    [0, 1, 2, 3, 4].map((column) => cleaned.map((row) => row[column])),
  );
}

/** Writes one language of an item (replacing what was there), HTML sanitised. */
export async function upsertTranslation(
  db: Queryable,
  newsId: number,
  lang: Language,
  translation: NewsTranslationInput,
): Promise<void> {
  const title = cleanPlainText(translation.title);
  if (title === '') throw new RangeError(`news item ${newsId} (${lang}) needs a title`);
  await db.query(
    `insert into news_translations (news_id, lang, title, abstract, content)
     values ($1, $2, $3, $4, $5)
     on conflict (news_id, lang) do update
       set title = excluded.title, abstract = excluded.abstract, content = excluded.content, updated_at = now()`,
    [
      newsId,
      lang,
      title,
      cleanPlainText(translation.abstract ?? ''),
      sanitizeNewsHtml(translation.content ?? ''),
    ],
  );
}
