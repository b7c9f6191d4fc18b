// News through app.inject() on PGlite (or PostgreSQL with DATABASE_URL): the seeded pages in five languages,
// the list, detail and item-detail calls, stored HTML cleaned of every XSS payload, and bad input refused
// with a translated message and never a 500.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES, translate } from '@fairex/shared';
import { insertNewsItem } from '../../src/news/service.ts';
import { seedNews, SEED_PACKS } from '../../src/news/seed/index.ts';
import { SEED_CATEGORIES, SEED_ITEMS } from '../../src/news/seed/items.ts';
import type { Store } from '../../src/store/index.ts';
import { buildTestApp, openTestStore, removeTempDirs } from '../helper.ts';

let store: Store;
let app: FastifyInstance;

interface Reply<T = unknown> {
  type: string;
  message: T;
}

async function call<T = unknown>(
  url: string,
  payload: Record<string, unknown> = {},
  query = '',
  method: 'GET' | 'POST' = 'POST',
): Promise<Reply<T>> {
  const response = await app.inject({
    method,
    url: `/api${url}${query}`,
    ...(method === 'POST' ? { payload } : {}),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Reply<T>;
}

async function ok<T>(url: string, payload: Record<string, unknown> = {}, query = ''): Promise<T> {
  const reply = await call<T>(url, payload, query);
  expect(reply.type, JSON.stringify(reply)).toBe('ok');
  return reply.message;
}

interface ListMessage {
  category: { id: number; kind: string; name: string } | null;
  list: {
    id: number;
    c_id: number;
    title: string;
    abstract: string;
    update_time: string;
    link: string | null;
    content?: string;
  }[];
  total: number;
  current_page: number;
  last_page: number;
  per_page: number;
}

interface DetailMessage {
  id: number;
  c_id: number;
  title: string;
  content: string;
  update_time: string;
  lang: string;
}

beforeAll(async () => {
  store = await openTestStore();
  app = await buildTestApp(store, { engine: false });
  await app.ready();
});

afterAll(async () => {
  await app.close();
  await store.close();
  await removeTempDirs();
});

describe('seeded pages', () => {
  it('has every category and every item in all five languages, links resolved', async () => {
    const { rows: categories } = await store.query<{ count: number }>(
      'select count(*)::int as count from news_categories',
    );
    expect(categories[0]?.count).toBe(SEED_CATEGORIES.length);
    const { rows } = await store.query<{ seed_key: string; lang: string; content: string }>(
      `select i.seed_key, t.lang, t.content from news_items i join news_translations t on t.news_id = i.id`,
    );
    expect(rows).toHaveLength(SEED_ITEMS.length * LANGUAGES.length);
    for (const row of rows) expect(row.content).not.toContain('{{item:');
    const linked = rows.find((row) => row.seed_key === 'news.seconds-settlement' && row.lang === 'en');
    expect(linked?.content).toMatch(/href="\/components\/noticeDetail\?id=\d+"/);
  });

  it('quotes the catalogue’s real fees on the fee pages', async () => {
    const { rows } = await store.query<{ content: string }>(
      `select t.content from news_items i join news_translations t on t.news_id = i.id
        where i.seed_key = 'fees.trading' and t.lang = 'en'`,
    );
    // The demo catalogue charges 1000 ppm (0.1 %) maker and taker on BTC/USDT.
    expect(rows[0]?.content).toContain('<td>BTC/USDT</td><td>0.1%</td><td>0.1%</td>');
    const { rows: funding } = await store.query<{ content: string }>(
      `select t.content from news_items i join news_translations t on t.news_id = i.id
        where i.seed_key = 'fees.funding' and t.lang = 'zh'`,
    );
    expect(funding[0]?.content).toContain('<td>0.001 BTC</td><td>0.0002 BTC</td>');
  });

  it('adds nothing on a second start and never overwrites an operator’s edit', async () => {
    await store.query(
      `update news_translations set title = 'Edited by the operator'
        where lang = 'en' and news_id = (select id from news_items where seed_key = 'notice.welcome')`,
    );
    expect(await seedNews(store)).toEqual({ categories: 0, items: 0 });
    const { rows } = await store.query<{ title: string }>(
      `select title from news_translations
        where lang = 'en' and news_id = (select id from news_items where seed_key = 'notice.welcome')`,
    );
    expect(rows[0]?.title).toBe('Edited by the operator');
    await store.query(
      `update news_translations set title = $1
        where lang = 'en' and news_id = (select id from news_items where seed_key = 'notice.welcome')`,
      [SEED_PACKS.en.items['notice.welcome'].title],
    );
  });

  it('writes Traditional Chinese for hk, not the Simplified text', () => {
    // Characters that exist only in Simplified Chinese; the Traditional forms differ.
    const simplifiedOnly = /[们这说设网页价发账资币务单时额认证钱续费过开关进杠强仓损亏]/;
    for (const item of SEED_ITEMS) {
      const hk = SEED_PACKS.hk.items[item.key];
      const content =
        typeof hk.content === 'string' ? hk.content : hk.content({ markets: [], currencies: [] });
      expect(hk.title + hk.abstract + content, item.key).not.toMatch(simplifiedOnly);
    }
    expect(SEED_PACKS.zh.items['risk.leverage'].title).toMatch(simplifiedOnly);
  });
});

describe('POST /api/news/list', () => {
  it('lists the notices in display order in the request language', async () => {
    const en = await ok<ListMessage>('/news/list', { c_id: 3 });
    expect(en.category).toEqual({ id: 3, kind: 'notice', name: 'Notices' });
    expect(en.list.map((item) => item.title)).toEqual([
      SEED_PACKS.en.items['notice.welcome'].title,
      SEED_PACKS.en.items['notice.prices'].title,
      SEED_PACKS.en.items['notice.security'].title,
    ]);
    expect(en.total).toBe(3);
    expect(en.list[0]).not.toHaveProperty('content');
    expect(Date.parse(en.list[0]?.update_time ?? '')).not.toBeNaN();

    const zh = await ok<ListMessage>('/news/list', { c_id: 3 }, '?lang=zh');
    expect(zh.list[0]?.title).toBe(SEED_PACKS.zh.items['notice.welcome'].title);
    const hk = await ok<ListMessage>('/news/list', { c_id: '3', lang: 'zh-HK' });
    expect(hk.category?.name).toBe('公告');
    expect(hk.list[0]?.title).toBe(SEED_PACKS.hk.items['notice.welcome'].title);
    const jp = await ok<ListMessage>('/news/list', { c_id: 3, language: 'jp' });
    expect(jp.list[0]?.title).toBe(SEED_PACKS.jp.items['notice.welcome'].title);
  });

  it('pages, and includes short contents when asked', async () => {
    const first = await ok<ListMessage>('/news/list', { c_id: 30, limit: 5, with_content: 1 });
    expect(first.list).toHaveLength(5);
    expect(first).toMatchObject({ total: 7, current_page: 1, last_page: 2, per_page: 5 });
    expect(first.list[0]?.content).toContain('<p>');
    const second = await ok<ListMessage>('/news/list', { c_id: 30, limit: 5, page: 2 });
    expect(second.list.map((item) => item.title)).toEqual([
      SEED_PACKS.en.items['faq.seconds'].title,
      SEED_PACKS.en.items['faq.leverage-loss'].title,
    ]);
  });

  it('gives the links of the built-with items', async () => {
    const built = await ok<ListMessage>('/news/list', { c_id: 32 });
    expect(built.list.map((item) => item.link)).toContain('https://www.postgresql.org/');
  });

  it('answers an empty list for a category that does not exist', async () => {
    const empty = await ok<ListMessage>('/news/list', { c_id: 999 });
    expect(empty).toMatchObject({ category: null, list: [], total: 0 });
  });

  it('falls back to English when a translation is missing, and hides unpublished items', async () => {
    const id = await insertNewsItem(store, {
      categoryId: 5,
      sortOrder: 99,
      translations: { en: { title: 'Only in English', content: '<p>Hello</p>' } },
    });
    const kr = await ok<ListMessage>('/news/list', { c_id: 5 }, '?lang=kr');
    expect(kr.list.find((item) => item.id === id)?.title).toBe('Only in English');
    const detail = await ok<DetailMessage>('/news/detail', { id }, '?lang=kr');
    expect(detail).toMatchObject({ title: 'Only in English', lang: 'en' });

    await store.query('update news_items set is_published = false where id = $1', [id]);
    const after = await ok<ListMessage>('/news/list', { c_id: 5 });
    expect(after.list.some((item) => item.id === id)).toBe(false);
    const hidden = await call('/news/detail', { id });
    expect(hidden).toEqual({ type: 'error', message: translate('en', 'news.not_found') });
  });
});

describe('POST /api/news/detail and /api/detail', () => {
  async function idOf(seedKey: string): Promise<number> {
    const { rows } = await store.query<{ id: number }>('select id from news_items where seed_key = $1', [
      seedKey,
    ]);
    const id = rows[0]?.id;
    if (id === undefined) throw new Error(`no item ${seedKey}`);
    return id;
  }

  it('returns the title, HTML content and update time in the chosen language', async () => {
    const id = await idOf('risk.seconds');
    const detail = await ok<DetailMessage>('/news/detail', { id }, '?lang=kr');
    expect(detail).toMatchObject({
      id,
      c_id: 21,
      title: SEED_PACKS.kr.items['risk.seconds'].title,
      lang: 'kr',
    });
    expect(detail.content).toContain('<h3>');
    const get = await app.inject({ method: 'GET', url: `/api/news/detail?id=${id}&lang=en` });
    expect(get.json()).toMatchObject({
      type: 'ok',
      message: { title: SEED_PACKS.en.items['risk.seconds'].title },
    });
  });

  it('shows a news item or a currency through /api/detail', async () => {
    const id = await idOf('legal.terms');
    const news = await ok<{ title: string; content: string }>('/detail', { type: 'news', id }, '?lang=jp');
    expect(news.title).toBe('利用規約');
    const currency = await ok<{ title: string; content: string }>(
      '/detail',
      { type: 'currency', id: 1 },
      '?lang=en',
    );
    expect(currency.title).toBe('Bitcoin (BTC)');
    expect(currency.content).toMatch(/^<p>Bitcoin is the first/);
  });

  it('answers not found in the request language', async () => {
    expect(await call('/news/detail', { id: 987654 }, '?lang=zh')).toEqual({
      type: 'error',
      message: translate('zh', 'news.not_found'),
    });
    expect(await call('/detail', { type: 'currency', id: 987654 })).toMatchObject({ type: 'error' });
  });
});

describe('stored HTML', () => {
  it('is cleaned of script, event handlers, javascript: links, SVG, frames and styles when written', async () => {
    const payload =
      '<p onclick="alert(1)">Read <a href="javascript:alert(1)">this</a></p><script>alert(1)</script>' +
      '<svg onload=alert(1)></svg><iframe src="https://evil.example"></iframe>' +
      '<p style="width:expression(alert(1))">x</p><img src="data:image/png;base64,AAAA" onerror="alert(1)">';
    const id = await insertNewsItem(store, {
      categoryId: 3,
      translations: { en: { title: '<b>Title</b>', abstract: 'a\u0000b', content: payload } },
    });
    expect(id).not.toBeNull();
    const detail = await ok<DetailMessage>('/news/detail', { id });
    expect(detail.content).toBe('<p>Read <a>this</a></p><p>x</p><img />');
    // Titles are plain text, shown as text: kept as written, control characters removed.
    expect(detail.title).toBe('<b>Title</b>');
    await store.query('delete from news_items where id = $1', [id]);
  });
});

describe('POST /api/news/categories', () => {
  it('gives the footer columns with their item titles', async () => {
    const { list } = await ok<{
      list: { id: number; name: string; list: { id: number; title: string }[] }[];
    }>('/news/categories', {}, '?lang=hk');
    expect(list.map((category) => category.id)).toEqual([9, 10, 19, 21, 29]);
    expect(list[1]?.name).toBe('使用指南');
    expect(list[1]?.list.map((item) => item.title)).toEqual([
      SEED_PACKS.hk.items['guide.deposit'].title,
      SEED_PACKS.hk.items['guide.withdraw'].title,
      SEED_PACKS.hk.items['guide.spot-order'].title,
    ]);
    const chosen = await ok<{ list: { id: number }[] }>('/news/categories', { ids: '29,3' });
    expect(chosen.list.map((category) => category.id)).toEqual([3, 29]);
  });
});

describe('bad input', () => {
  const cases: [string, Record<string, unknown>][] = [
    ['/news/list', {}],
    ['/news/list', { c_id: '' }],
    ['/news/list', { c_id: 'abc' }],
    ['/news/list', { c_id: 0 }],
    ['/news/list', { c_id: -3 }],
    ['/news/list', { c_id: '3.5' }],
    ['/news/list', { c_id: '99999999999' }],
    ['/news/list', { c_id: [3] }],
    ['/news/list', { c_id: { $gt: 0 } }],
    ['/news/list', { c_id: 3, page: 0 }],
    ['/news/list', { c_id: 3, limit: 51 }],
    ['/news/list', { c_id: 3, limit: 'all' }],
    ['/news/list', { c_id: 3, with_content: 2 }],
    ['/news/list', { c_id: 3, lang: 'x'.repeat(17) }],
    ['/news/detail', {}],
    ['/news/detail', { id: "1' or '1'='1" }],
    ['/news/detail', { id: -1 }],
    ['/detail', { id: 1 }],
    ['/detail', { type: 'user', id: 1 }],
    ['/detail', { type: 'news' }],
    ['/news/categories', { ids: 'a,b' }],
    ['/news/categories', { ids: '9,,10' }],
    ['/news/categories', { ids: '1,2,3,4,5,6,7,8,9,10,11' }],
  ];

  it.each(cases)('%s %j is refused with a translated message', async (url, payload) => {
    const reply = await call(url, payload, '?lang=zh');
    expect(reply.type).toBe('error');
    expect(typeof reply.message).toBe('string');
    expect(reply.message as string).not.toMatch(/select|stack|Error:|at \//i);
  });

  it('refuses a JSON array body', async () => {
    const response = await app.inject({ method: 'POST', url: '/api/news/list', payload: [1, 2] });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ type: 'error' });
  });

  it('names the field in the message', async () => {
    const reply = await call('/news/list', { c_id: 'abc' });
    expect(reply.message).toBe(
      translate('en', 'validation.integer', { field: translate('en', 'field.c_id') }),
    );
  });
});
