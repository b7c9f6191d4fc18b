// Site content as the operator edits it: news categories (names per language, order, visibility) and items
// (one per id, words per language), which also carry the home page's FAQ, commitments and partner links.
// Every write goes through the news module's writers, which sanitise the HTML before it is stored; the
// audit log keeps titles, abstracts and a digest of each language's content before and after.
import { createHash } from 'node:crypto';
import type {
  Language,
  NewsCategoryLine,
  NewsItemDetail,
  NewsItemLine,
  NewsItemTranslation,
} from '@fairex/shared';
import { LANGUAGES } from '@fairex/shared';
import { AppError } from '../http/app-error.ts';
import { upsertTranslation } from '../news/service.ts';
import type { Queryable } from '../store/index.ts';
import type { LocalizedText } from '../store/schema/index.ts';
import type { Actor } from './audit-changes.ts';
import { changedFields, recordChange } from './audit-changes.ts';

export type { NewsCategoryLine, NewsItemDetail, NewsItemLine } from '@fairex/shared';

export const CONTENT_PAGE_SIZE = 20;

export async function listCategories(db: Queryable): Promise<NewsCategoryLine[]> {
  const { rows } = await db.query<NewsCategoryLine>(
    `select c.id, c.kind, c.names, c.sort_order, c.is_visible,
            (select count(*)::int from news_items i where i.category_id = c.id) as items,
            (select count(*)::int from news_items i where i.category_id = c.id and i.is_published) as published
       from news_categories c order by c.sort_order, c.id`,
  );
  return rows;
}

export async function updateCategory(
  db: Queryable,
  actor: Actor,
  id: number,
  update: {
    names?: LocalizedText | undefined;
    sortOrder?: number | undefined;
    isVisible?: boolean | undefined;
  },
): Promise<void> {
  const { rows } = await db.query<{ names: LocalizedText; sort_order: number; is_visible: boolean }>(
    'select names, sort_order, is_visible from news_categories where id = $1 for update',
    [id],
  );
  const row = rows[0];
  if (!row) throw new AppError('backoffice.category_not_found');
  let names: LocalizedText | undefined;
  if (update.names !== undefined) {
    names = {};
    for (const lang of LANGUAGES) {
      const name = update.names[lang]?.trim();
      if (name) names[lang] = name;
    }
    if (!names.en) throw new AppError('backoffice.english_required');
  }
  const { before, after } = changedFields(
    { names: row.names, sort_order: row.sort_order, is_visible: row.is_visible },
    { names, sort_order: update.sortOrder, is_visible: update.isVisible },
  );
  if (Object.keys(after).length === 0) throw new AppError('backoffice.nothing_changed');
  await db.query(
    `update news_categories set names = coalesce($2::jsonb, names), sort_order = coalesce($3, sort_order),
            is_visible = coalesce($4, is_visible)
      where id = $1`,
    [
      id,
      names === undefined ? null : JSON.stringify(names),
      update.sortOrder ?? null,
      update.isVisible ?? null,
    ],
  );
  await recordChange(db, actor, {
    action: 'news_category.update',
    targetType: 'news_category',
    targetId: id,
    before,
    after,
  });
}

export async function listItems(
  db: Queryable,
  input: {
    categoryId?: number | undefined;
    query?: string | undefined;
    page: number;
    /** The title shown is in this language when the item has it, else in English. */
    lang: Language;
  },
): Promise<{ data: NewsItemLine[]; total: number }> {
  const conditions: string[] = [];
  const params: unknown[] = [];
  if (input.categoryId !== undefined) {
    params.push(input.categoryId);
    conditions.push(`i.category_id = $${params.length}`);
  }
  if (input.query?.trim()) {
    params.push(`%${input.query.trim().replace(/[\\%_]/g, (match) => `\\${match}`)}%`);
    conditions.push(
      `exists (select 1 from news_translations t where t.news_id = i.id and t.title ilike $${params.length})`,
    );
  }
  const where = conditions.length === 0 ? '' : `where ${conditions.join(' and ')}`;
  const { rows: total } = await db.query<{ count: number }>(
    `select count(*)::int as count from news_items i ${where}`,
    params,
  );
  const langParam = params.push(input.lang);
  const { rows } = await db.query<{
    id: number;
    category_id: number;
    title: string | null;
    languages: Language[] | null;
    link_url: string | null;
    sort_order: number;
    is_published: boolean;
    seeded: boolean;
    updated_at: Date;
  }>(
    `select i.id, i.category_id, i.link_url, i.sort_order, i.is_published, (i.seed_key is not null) as seeded,
            greatest(i.updated_at, (select max(t.updated_at) from news_translations t where t.news_id = i.id)) as updated_at,
            (select t.title from news_translations t where t.news_id = i.id
              order by (t.lang = $${langParam}) desc, (t.lang = 'en') desc, t.lang limit 1) as title,
            (select array_agg(t.lang order by t.lang) from news_translations t where t.news_id = i.id) as languages
       from news_items i ${where}
      order by i.id desc limit ${CONTENT_PAGE_SIZE} offset ${(input.page - 1) * CONTENT_PAGE_SIZE}`,
    params,
  );
  return {
    data: rows.map((row) => ({
      ...row,
      title: row.title ?? '',
      languages: row.languages ?? [],
      updated_at: row.updated_at.toISOString(),
    })),
    total: total[0]?.count ?? 0,
  };
}

export async function itemDetail(db: Queryable, id: number): Promise<NewsItemDetail> {
  const { rows } = await db.query<{
    id: number;
    category_id: number;
    link_url: string | null;
    sort_order: number;
    is_published: boolean;
  }>('select id, category_id, link_url, sort_order, is_published from news_items where id = $1', [id]);
  const row = rows[0];
  if (!row) throw new AppError('backoffice.item_not_found');
  const { rows: translations } = await db.query<NewsItemTranslation & { lang: Language }>(
    'select lang, title, abstract, content from news_translations where news_id = $1 order by lang',
    [id],
  );
  return {
    ...row,
    translations: Object.fromEntries(
      translations.map((translation) => [
        translation.lang,
        { title: translation.title, abstract: translation.abstract, content: translation.content },
      ]),
    ),
  };
}

export interface ItemInput {
  categoryId: number;
  linkUrl: string | null;
  sortOrder: number;
  isPublished: boolean;
  /** Languages to write; a language absent here is removed from the item. */
  translations: Partial<
    Record<Language, { title: string; abstract?: string | undefined; content?: string | undefined }>
  >;
}

/** What the audit log keeps of an item: everything but the HTML, which it names by length and digest. */
function auditView(item: NewsItemDetail) {
  return {
    category_id: item.category_id,
    link_url: item.link_url,
    sort_order: item.sort_order,
    is_published: item.is_published,
    translations: Object.fromEntries(
      Object.entries(item.translations).map(([lang, translation]) => [
        lang,
        {
          title: translation.title,
          abstract: translation.abstract,
          content_length: translation.content.length,
          content_sha256: createHash('sha256').update(translation.content).digest('hex'),
        },
      ]),
    ),
  };
}

async function requireCategory(db: Queryable, categoryId: number): Promise<void> {
  const { rows } = await db.query('select 1 from news_categories where id = $1', [categoryId]);
  if (rows.length === 0) throw new AppError('backoffice.category_not_found');
}

async function writeTranslations(db: Queryable, id: number, input: ItemInput): Promise<void> {
  const languages = LANGUAGES.filter((lang) => input.translations[lang] !== undefined);
  if (languages.length === 0) throw new AppError('backoffice.translation_required');
  for (const lang of languages) {
    const translation = input.translations[lang];
    if (translation === undefined) continue;
    try {
      await upsertTranslation(db, id, lang, translation);
    } catch (error) {
      // A title made only of control characters or white space is empty once cleaned.
      if (error instanceof RangeError) throw new AppError('backoffice.title_required', { lang });
      throw error;
    }
  }
  await db.query('delete from news_translations where news_id = $1 and not (lang = any($2::text[]))', [
    id,
    languages,
  ]);
}

export async function createItem(db: Queryable, actor: Actor, input: ItemInput): Promise<number> {
  await requireCategory(db, input.categoryId);
  const { rows } = await db.query<{ id: number }>(
    `insert into news_items (category_id, link_url, sort_order, is_published) values ($1, $2, $3, $4) returning id`,
    [input.categoryId, input.linkUrl, input.sortOrder, input.isPublished],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('news item insert returned no id');
  await writeTranslations(db, id, input);
  await recordChange(db, actor, {
    action: 'news_item.create',
    targetType: 'news_item',
    targetId: id,
    after: auditView(await itemDetail(db, id)),
  });
  return id;
}

export async function updateItem(db: Queryable, actor: Actor, id: number, input: ItemInput): Promise<void> {
  const current = await itemDetail(db, id);
  await requireCategory(db, input.categoryId);
  await db.query(
    `update news_items set category_id = $2, link_url = $3, sort_order = $4, is_published = $5, updated_at = now()
      where id = $1`,
    [id, input.categoryId, input.linkUrl, input.sortOrder, input.isPublished],
  );
  await writeTranslations(db, id, input);
  const { before, after } = changedFields(auditView(current), auditView(await itemDetail(db, id)));
  await recordChange(db, actor, {
    action: 'news_item.update',
    targetType: 'news_item',
    targetId: id,
    before,
    after,
  });
}

export async function setItemPublished(
  db: Queryable,
  actor: Actor,
  id: number,
  published: boolean,
): Promise<void> {
  const { rows } = await db.query<{ is_published: boolean }>(
    'select is_published from news_items where id = $1 for update',
    [id],
  );
  const row = rows[0];
  if (!row) throw new AppError('backoffice.item_not_found');
  if (row.is_published === published) throw new AppError('backoffice.nothing_changed');
  await db.query('update news_items set is_published = $2, updated_at = now() where id = $1', [
    id,
    published,
  ]);
  await recordChange(db, actor, {
    action: published ? 'news_item.publish' : 'news_item.unpublish',
    targetType: 'news_item',
    targetId: id,
    before: { is_published: row.is_published },
    after: { is_published: published },
  });
}

/**
 * Deletes an item written here. A seeded item is not deleted: the seeder adds any seed key it does not find,
 * so it would come back at the next start; unpublishing hides it for good.
 */
export async function deleteItem(db: Queryable, actor: Actor, id: number): Promise<void> {
  const current = await itemDetail(db, id);
  const { rows } = await db.query<{ seeded: boolean }>(
    'select (seed_key is not null) as seeded from news_items where id = $1',
    [id],
  );
  if (rows[0]?.seeded) throw new AppError('backoffice.seeded_item_delete');
  await db.query('delete from news_items where id = $1', [id]);
  await recordChange(db, actor, {
    action: 'news_item.delete',
    targetType: 'news_item',
    targetId: id,
    before: auditView(current),
  });
}
