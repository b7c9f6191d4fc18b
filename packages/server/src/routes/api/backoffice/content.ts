// Site content (news, notices, footer pages, FAQ, commitments, partner links):
//   GET  /api/backoffice/news/categories          every category with its names and item counts
//   POST /api/backoffice/news/categories/update   id, names (per language), sort_order, is_visible
//   GET  /api/backoffice/news/items               category_id, q, page
//   GET  /api/backoffice/news/items/detail        id: the item with every language's words
//   POST /api/backoffice/news/items/create        category_id, link_url, sort_order, is_published, translations
//   POST /api/backoffice/news/items/update        id and the same fields (languages left out are removed)
//   POST /api/backoffice/news/items/publish       id, published
//   POST /api/backoffice/news/items/delete        id (items written here; seeded ones are unpublished instead)
// Bodies with texts per language are JSON. HTML is sanitised by the news module before it is stored.
import type { FastifyInstance } from 'fastify';
import type { NewsCategoriesReply, NewsItemCreatedReply } from '@fairex/shared';
import {
  backofficeIdInput,
  newsCategoryUpdateInput,
  newsItemCreateInput,
  newsItemListInput,
  newsItemPublishInput,
  newsItemUpdateInput,
  ok,
  paged,
} from '@fairex/shared';
import {
  CONTENT_PAGE_SIZE,
  createItem,
  deleteItem,
  itemDetail,
  listCategories,
  listItems,
  setItemPublished,
  updateCategory,
  updateItem,
} from '../../../admin/content.ts';
import type { AdminRoute } from './guard.ts';

export function contentRoutes(app: FastifyInstance, adminRoute: AdminRoute): void {
  adminRoute({
    method: 'GET',
    url: '/backoffice/news/categories',
    access: 'content',
    handler: async () => ok<NewsCategoriesReply>({ list: await listCategories(app.store) }),
  });

  adminRoute({
    method: 'POST',
    url: '/backoffice/news/categories/update',
    access: 'content',
    input: newsCategoryUpdateInput,
    handler: async ({ input, actor, t }) => {
      await app.store.transaction((tx) =>
        updateCategory(tx, actor, input.id, {
          names: input.names,
          sortOrder: input.sort_order,
          isVisible: input.is_visible,
        }),
      );
      return ok(t('backoffice.saved'));
    },
  });

  adminRoute({
    method: 'GET',
    url: '/backoffice/news/items',
    access: 'content',
    input: newsItemListInput,
    handler: async ({ input, lang }) => {
      const pageNumber = input.page ?? 1;
      const { data, total } = await listItems(app.store, {
        categoryId: input.category_id,
        query: input.q,
        page: pageNumber,
        lang,
      });
      return ok(paged(data, pageNumber, CONTENT_PAGE_SIZE, total));
    },
  });

  adminRoute({
    method: 'GET',
    url: '/backoffice/news/items/detail',
    access: 'content',
    input: backofficeIdInput,
    handler: async ({ input }) => ok(await itemDetail(app.store, input.id)),
  });

  adminRoute({
    method: 'POST',
    url: '/backoffice/news/items/create',
    access: 'content',
    input: newsItemCreateInput,
    handler: async ({ input, actor, t }) => {
      const newId = await app.store.transaction((tx) =>
        createItem(tx, actor, {
          categoryId: input.category_id,
          linkUrl: input.link_url ?? null,
          sortOrder: input.sort_order ?? 0,
          isPublished: input.is_published ?? false,
          translations: input.translations,
        }),
      );
      return ok<NewsItemCreatedReply>({ id: newId, message: t('backoffice.saved') });
    },
  });

  adminRoute({
    method: 'POST',
    url: '/backoffice/news/items/update',
    access: 'content',
    input: newsItemUpdateInput,
    handler: async ({ input, actor, t }) => {
      await app.store.transaction((tx) =>
        updateItem(tx, actor, input.id, {
          categoryId: input.category_id,
          linkUrl: input.link_url ?? null,
          sortOrder: input.sort_order ?? 0,
          isPublished: input.is_published ?? false,
          translations: input.translations,
        }),
      );
      return ok(t('backoffice.saved'));
    },
  });

  adminRoute({
    method: 'POST',
    url: '/backoffice/news/items/publish',
    access: 'content',
    input: newsItemPublishInput,
    handler: async ({ input, actor, t }) => {
      await app.store.transaction((tx) => setItemPublished(tx, actor, input.id, input.published));
      return ok(t('backoffice.saved'));
    },
  });

  adminRoute({
    method: 'POST',
    url: '/backoffice/news/items/delete',
    access: 'content',
    input: backofficeIdInput,
    handler: async ({ input, actor, t }) => {
      await app.store.transaction((tx) => deleteItem(tx, actor, input.id));
      return ok(t('backoffice.deleted'));
    },
  });
}
