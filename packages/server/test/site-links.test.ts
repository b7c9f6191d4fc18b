// The customer-service link (GET /api/custorm), set in the back office's settings with an audit entry, and
// QR codes as PNG images (GET /qr_create?text=), with a bounded text and a clear, translated refusal.
import type { FastifyInstance } from 'fastify';
import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '@fairex/shared';
import type { Store } from '../src/store/index.ts';
import { QR_TEXT_MAX } from '../src/routes/api/site/index.ts';
import { signedInAdmin } from './helper-admin.ts';
import { buildTestApp, openTestStore, removeTempDirs } from './helper.ts';

// jsqr is CommonJS whose types declare an ES default export: the function is the default either way.
const jsQR = ((jsQRModule as unknown as { default?: unknown }).default ?? jsQRModule) as (
  data: Uint8ClampedArray,
  width: number,
  height: number,
) => { data: string } | null;

let store: Store;
let app: FastifyInstance;
let adminToken: string;

beforeAll(async () => {
  store = await openTestStore();
  app = await buildTestApp(store);
  await app.ready();
  adminToken = await signedInAdmin(app, store, { username: 'site-admin', role: 'admin' });
});

afterAll(async () => {
  await app.close();
  await store?.close();
  await removeTempDirs();
});

async function apply(values: Record<string, unknown>, lang = 'en') {
  const response = await app.inject({
    method: 'POST',
    url: `/api/backoffice/settings/apply?lang=${lang}`,
    headers: { authorization: adminToken },
    payload: { key: 'site.links', target_id: 1, values },
  });
  return response.json() as { type: string; message: unknown };
}

const custorm = async (lang = 'en') =>
  (await app.inject(`/api/custorm?terminal=recharge&lang=${lang}`)).json() as {
    type: string;
    message: unknown;
  };

describe('GET /api/custorm', () => {
  it('says in the request language that no link is set until an administrator sets one', async () => {
    for (const lang of ['en', 'zh', 'hk', 'kr', 'jp'] as const) {
      expect(await custorm(lang)).toEqual({
        type: 'error',
        message: translate(lang, 'site.customer_service_unset'),
      });
    }
  });

  it('answers the link the back office set, and the audit log keeps the change', async () => {
    const settings = (
      await app.inject({
        url: '/api/backoffice/settings?lang=en',
        headers: { authorization: adminToken },
      })
    ).json() as { message: { settings: { key: string; scope: string; rows: unknown[] }[] } };
    const site = settings.message.settings.find((setting) => setting.key === 'site.links');
    expect(site).toMatchObject({
      scope: 'site',
      rows: [{ target_id: 1, values: { customer_service_url: '' } }],
    });

    expect(await apply({ customer_service_url: 'https://support.example.com/chat?x=1' })).toMatchObject({
      type: 'ok',
    });
    expect(await custorm()).toEqual({ type: 'ok', message: 'https://support.example.com/chat?x=1' });
    const { rows } = await store.query<{ detail: Record<string, unknown> }>(
      `select detail from audit_log where action = 'site.update' order by id desc limit 1`,
    );
    expect(rows[0]?.detail).toMatchObject({
      before: { customer_service_url: '' },
      after: { customer_service_url: 'https://support.example.com/chat?x=1' },
    });

    // Cleared again: not set.
    expect((await apply({ customer_service_url: '' })).type).toBe('ok');
    expect((await custorm()).type).toBe('error');
  });

  it('refuses a link that is not https, changing nothing', async () => {
    expect((await apply({ customer_service_url: 'https://help.example.com' })).type).toBe('ok');
    for (const bad of ['http://plain.example.com', 'javascript:alert(1)', 'https://a b', 'x'.repeat(600)]) {
      expect(await apply({ customer_service_url: bad })).toMatchObject({ type: 'error' });
    }
    expect(await apply({ other: 'x' })).toMatchObject({ type: 'error' });
    expect(await apply({ customer_service_url: 'https://help.example.com' }, 'zh')).toEqual({
      type: 'error',
      message: translate('zh', 'backoffice.nothing_changed'),
    });
    expect(await custorm()).toEqual({ type: 'ok', message: 'https://help.example.com' });
  });
});

describe('GET /qr_create', () => {
  it('draws the text as a PNG QR code that reads back to the same text', async () => {
    for (const url of ['/qr_create', '/api/qr_create']) {
      const text = 'TRX7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
      const response = await app.inject(`${url}?text=${encodeURIComponent(text)}`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('image/png');
      const png = PNG.sync.read(response.rawPayload);
      const decoded = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
      expect(decoded?.data).toBe(text);
    }
  });

  it('refuses a missing, empty or too long text with a translated message', async () => {
    for (const query of ['', '?text=', `?text=${'a'.repeat(QR_TEXT_MAX + 1)}`]) {
      const response = await app.inject(`/qr_create${query}${query ? '&' : '?'}lang=jp`);
      expect(response.statusCode).toBe(200);
      const body = response.json() as { type: string; message: string };
      expect(body.type).toBe('error');
      expect(body.message).not.toBe('');
    }
    const long = await app.inject(`/qr_create?text=${'a'.repeat(QR_TEXT_MAX + 1)}&lang=en`);
    expect((long.json() as { message: string }).message).toContain(String(QR_TEXT_MAX));
  });
});
