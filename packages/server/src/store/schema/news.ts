// Drizzle mirror of the news tables (see migrations/0007_news.sql).
import { boolean, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import type { NewsCategoryKind } from '@fairex/shared';
import type { LocalizedText } from './catalog.ts';

export type { NewsCategoryKind };

export const newsCategories = pgTable('news_categories', {
  id: integer('id').primaryKey(),
  kind: text('kind').$type<NewsCategoryKind>().notNull(),
  names: jsonb('names').$type<LocalizedText>().notNull().default({}),
  sortOrder: integer('sort_order').notNull().default(0),
  isVisible: boolean('is_visible').notNull().default(true),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const newsItems = pgTable('news_items', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  categoryId: integer('category_id')
    .notNull()
    .references(() => newsCategories.id),
  seedKey: text('seed_key').unique(),
  linkUrl: text('link_url'),
  sortOrder: integer('sort_order').notNull().default(0),
  isPublished: boolean('is_published').notNull().default(true),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const newsTranslations = pgTable(
  'news_translations',
  {
    newsId: integer('news_id')
      .notNull()
      .references(() => newsItems.id, { onDelete: 'cascade' }),
    lang: text('lang').notNull(),
    title: text('title').notNull(),
    abstract: text('abstract').notNull().default(''),
    content: text('content').notNull().default(''),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.newsId, table.lang] })],
);

export type NewsCategory = typeof newsCategories.$inferSelect;
export type NewsItem = typeof newsItems.$inferSelect;
export type NewsTranslation = typeof newsTranslations.$inferSelect;
