// News (spec 01 section 7, spec 02 section 7): POST /api/news/list, /api/news/detail and /api/detail, plus
// /api/news/categories for the footer's link columns. GET works too: the lists are public reads.
import type { FastifyInstance } from 'fastify';
import type { Language } from '@fairex/shared';
import { ok, paged, resolveLanguage } from '@fairex/shared';
import {
  itemDetailInput,
  newsCategoriesInput,
  newsDetailInput,
  newsListInput,
} from '@fairex/shared/api/news.ts';
import { AppError } from '../../../http/app-error.ts';
import { route } from '../../../http/route.ts';
import { currencyText } from '../../../market/repository.ts';
import {
  FOOTER_CATEGORY_IDS,
  findCategory,
  getNews,
  listCategoriesWithTitles,
  listNews,
} from '../../../news/service.ts';

const PER_PAGE_DEFAULT = 20;
const TITLES_PER_CATEGORY = 20;

function contentLanguage(input: { lang?: string; language?: string }, requestLang: Language): Language {
  return resolveLanguage(input.lang) ?? resolveLanguage(input.language) ?? requestLang;
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

export default async function newsRoutes(app: FastifyInstance): Promise<void> {
  route(app, {
    method: ['GET', 'POST'],
    url: '/news/list',
    input: newsListInput,
    handler: async ({ input, lang }) => {
      const language = contentLanguage(input, lang);
      const category = await findCategory(app.store, input.c_id, language);
      const currentPage = input.page ?? 1;
      const perPage = input.limit ?? PER_PAGE_DEFAULT;
      if (!category) return ok({ category: null, list: [], ...paged([], currentPage, perPage, 0) });
      const { items, total } = await listNews(app.store, {
        categoryId: category.id,
        lang: language,
        page: currentPage,
        perPage,
        withContent: input.with_content === 1,
      });
      // `list` is what the template's client reads; `data` and the paging fields follow spec 03 section 1.
      return ok({ category, list: items, ...paged(items, currentPage, perPage, total) });
    },
  });

  route(app, {
    method: ['GET', 'POST'],
    url: '/news/detail',
    input: newsDetailInput,
    handler: async ({ input, lang }) => {
      const item = await getNews(app.store, input.id, contentLanguage(input, lang));
      if (!item) throw new AppError('news.not_found');
      return ok(item);
    },
  });

  route(app, {
    method: ['GET', 'POST'],
    url: '/news/categories',
    input: newsCategoriesInput,
    handler: async ({ input, lang }) => {
      const categories = await listCategoriesWithTitles(
        app.store,
        input.ids ?? FOOTER_CATEGORY_IDS,
        contentLanguage(input, lang),
        TITLES_PER_CATEGORY,
      );
      return ok({ list: categories });
    },
  });

  // The item detail page (/itemDetail) shows a news item or a currency's description by type and id.
  route(app, {
    method: ['GET', 'POST'],
    url: '/detail',
    input: itemDetailInput,
    handler: async ({ input, lang }) => {
      const language = contentLanguage(input, lang);
      if (input.type === 'news') {
        const item = await getNews(app.store, input.id, language);
        if (!item) throw new AppError('news.not_found');
        return ok({
          type: 'news',
          id: item.id,
          title: item.title,
          content: item.content,
          update_time: item.update_time,
        });
      }
      const currency = await currencyText(app.store, input.id, { enabledOnly: true });
      if (!currency) throw new AppError('news.not_found');
      const description = currency.descriptions[language] ?? currency.descriptions.en ?? '';
      return ok({
        type: 'currency',
        id: currency.id,
        title: `${currency.name} (${currency.code})`,
        // A currency's description is plain text; it goes out as one escaped paragraph.
        content: description === '' ? '' : `<p>${escapeHtml(description)}</p>`,
        update_time: null,
      });
    },
  });
}
