import { keepPreviousData, useQuery, type UseQueryResult } from '@tanstack/react-query';
import type { NewsDetailReply, NewsListEntry } from '@fairex/shared/api/news.ts';
import { ApiError, api } from './api.ts';
import { i18next } from '../i18n/index.ts';

// The news calls (spec 01 section 7, spec 02 section 7) and the home page's figures. Answers are read
// field by field: anything missing or of the wrong type is dropped rather than shown as something else.

/** Category ids the specifications fix, and the product's own from 30 up. */
export const NEWS_CATEGORY = {
  notices: 3,
  homeNews: 5,
  faq: 30,
  commitments: 31,
  builtWith: 32,
} as const;

/** The footer's link columns (spec 01 section 7). */
export const FOOTER_CATEGORY_IDS = [9, 10, 19, 21, 29] as const;

export interface NewsListItem {
  id: number;
  title: string;
  abstract: string;
  /** ISO 8601. */
  updateTime: string;
  link: string | null;
  content: string | null;
}

export interface NewsList {
  categoryName: string | null;
  items: NewsListItem[];
  total: number;
  page: number;
  lastPage: number;
}

export interface NewsDetail {
  id: number;
  title: string;
  content: string;
  updateTime: string | null;
}

export interface NewsCategoryColumn {
  id: number;
  name: string;
  items: { id: number; title: string }[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function positiveId(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : null;
}

function badResponse(): ApiError {
  return new ApiError('bad-response', i18next.t('errors.badResponse'), 200);
}

/** Only https links leave the site from a news item; anything else is dropped. */
function safeLink(value: unknown): string | null {
  return typeof value === 'string' && /^https:\/\/[^\s"'<>]+$/.test(value) ? value : null;
}

export function readNewsList(message: unknown): NewsList {
  if (!isRecord(message) || !Array.isArray(message.list)) throw badResponse();
  const items = message.list.flatMap((record): NewsListItem[] => {
    if (!isRecord(record)) return [];
    const entry: { [K in keyof NewsListEntry]?: unknown } = record;
    const id = positiveId(entry.id);
    if (id === null || text(entry.title) === '') return [];
    return [
      {
        id,
        title: text(entry.title),
        abstract: text(entry.abstract),
        updateTime: text(entry.update_time),
        link: safeLink(entry.link),
        content: typeof entry.content === 'string' ? entry.content : null,
      },
    ];
  });
  const category = isRecord(message.category) ? message.category : null;
  const whole = (value: unknown, fallback: number) =>
    typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : fallback;
  return {
    categoryName: category && typeof category.name === 'string' ? category.name : null,
    items,
    total: whole(message.total, items.length),
    page: whole(message.current_page, 1),
    lastPage: whole(message.last_page, 1),
  };
}

/** The detail's reply (the shared contract's NewsDetailReply), read field by field. */
export function readNewsDetail(message: unknown): NewsDetail {
  if (!isRecord(message)) throw badResponse();
  const reply: { [K in keyof NewsDetailReply]?: unknown } = message;
  const id = positiveId(reply.id) ?? 0;
  return {
    id,
    title: text(reply.title),
    content: text(reply.content),
    updateTime: typeof reply.update_time === 'string' ? reply.update_time : null,
  };
}

export function readCategoryColumns(message: unknown): NewsCategoryColumn[] {
  if (!isRecord(message) || !Array.isArray(message.list)) throw badResponse();
  return message.list.flatMap((entry): NewsCategoryColumn[] => {
    if (!isRecord(entry) || !Array.isArray(entry.list)) return [];
    const id = positiveId(entry.id);
    if (id === null) return [];
    const items = entry.list.flatMap((item) => {
      if (!isRecord(item)) return [];
      const itemId = positiveId(item.id);
      return itemId === null || text(item.title) === '' ? [] : [{ id: itemId, title: text(item.title) }];
    });
    return items.length === 0 ? [] : [{ id, name: text(entry.name), items }];
  });
}

export interface NewsListOptions {
  page?: number;
  limit?: number;
  withContent?: boolean;
}

export function useNewsList(
  categoryId: number,
  options: NewsListOptions = {},
): UseQueryResult<NewsList, Error> {
  const { page = 1, limit, withContent = false } = options;
  return useQuery({
    queryKey: ['news', 'list', categoryId, page, limit ?? null, withContent],
    queryFn: async ({ signal }) =>
      readNewsList(
        await api.post<unknown>(
          '/news/list',
          { c_id: categoryId, page, limit, with_content: withContent ? 1 : undefined },
          { signal },
        ),
      ),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}

/** A news item by id; disabled while there is no valid id. */
export function useNewsDetail(id: number | null): UseQueryResult<NewsDetail, Error> {
  return useQuery({
    queryKey: ['news', 'detail', id],
    queryFn: async ({ signal }) =>
      readNewsDetail(await api.post<unknown>('/news/detail', { id }, { signal })),
    enabled: id !== null,
    staleTime: 60_000,
  });
}

export type ItemDetailType = 'news' | 'currency';

/** POST /api/detail: a news item or a currency's description. */
export function useItemDetail(type: ItemDetailType, id: number | null): UseQueryResult<NewsDetail, Error> {
  return useQuery({
    queryKey: ['news', 'item-detail', type, id],
    queryFn: async ({ signal }) =>
      readNewsDetail(await api.post<unknown>('/detail', { type, id }, { signal })),
    enabled: id !== null,
    staleTime: 60_000,
  });
}

export function useFooterColumns(): UseQueryResult<NewsCategoryColumn[], Error> {
  return useQuery({
    queryKey: ['news', 'categories', FOOTER_CATEGORY_IDS.join(',')],
    queryFn: async ({ signal }) =>
      readCategoryColumns(
        await api.post<unknown>('/news/categories', { ids: FOOTER_CATEGORY_IDS.join(',') }, { signal }),
      ),
    staleTime: 5 * 60_000,
  });
}

/** A positive whole id from the address bar (`?id=12`), else null. */
export function idFromSearch(value: string | null): number | null {
  if (value === null || !/^\d{1,9}$/.test(value)) return null;
  const id = Number(value);
  return id > 0 ? id : null;
}

/** The page of a news item, as the footer and the lists link to it. */
export function noticePath(id: number): string {
  return `/components/noticeDetail?id=${id}`;
}
