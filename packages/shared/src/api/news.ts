// The news calls (spec 01 section 7, spec 02 section 7): the input schemas of /api/news/list, /news/detail,
// /news/categories and /detail, and the list's items and the detail's reply, declared once in the contract.
import { z } from 'zod';
import type { Language } from '../languages.ts';
import type { NewsCategoryKind } from './backoffice.ts';
import { id, integer, oneOf, optional, page, text } from '../schema/fields.ts';

export const NEWS_PER_PAGE_MAX = 50;
export const NEWS_CATEGORIES_MAX = 10;

/** `lang` or `language` in the body may name the content language; otherwise the request language. */
export const newsLanguageFields = {
  lang: optional(text({ max: 16 })),
  language: optional(text({ max: 16 })),
};

export const newsListInput = z.object({
  c_id: id(),
  page: page(),
  limit: optional(integer({ min: 1, max: NEWS_PER_PAGE_MAX })),
  /** 1: include each item's HTML (short items such as FAQ answers). */
  with_content: optional(oneOf([0, 1])),
  ...newsLanguageFields,
});

export const newsDetailInput = z.object({ id: id(), ...newsLanguageFields });

export const itemDetailInput = z.object({
  type: oneOf(['news', 'currency']),
  id: id(),
  ...newsLanguageFields,
});

/** Comma-separated category ids, e.g. "9,10,19"; the footer's columns when absent. */
const categoryIdsField = optional(
  text({ max: 100 }).pipe(
    z
      .string()
      .regex(/^\d{1,9}(,\d{1,9})*$/, { message: 'validation.invalid' })
      .transform((value) => [...new Set(value.split(',').map(Number))])
      .refine((ids) => ids.length <= NEWS_CATEGORIES_MAX, { message: 'validation.invalid' }),
  ),
);

export const newsCategoriesInput = z.object({ ids: categoryIdsField, ...newsLanguageFields });

/** A category as /news/list names it. */
export interface NewsCategoryView {
  id: number;
  kind: NewsCategoryKind;
  name: string;
}

/** One item of /news/list, in the asked language (else English, else any). */
export interface NewsListEntry {
  id: number;
  c_id: number;
  title: string;
  abstract: string;
  /** ISO 8601, UTC. */
  update_time: string;
  /** The outside address of a link item, else null. */
  link: string | null;
  /** Only when asked for (short items such as FAQ answers). */
  content?: string;
}

/** /news/detail: one item in the asked language (else English, else any). */
export interface NewsDetailReply {
  id: number;
  c_id: number;
  title: string;
  abstract: string;
  content: string;
  /** ISO 8601, UTC. */
  update_time: string;
  /** The outside address of a link item, else null. */
  link: string | null;
  lang: Language;
}
