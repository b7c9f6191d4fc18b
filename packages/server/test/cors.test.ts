// Cross-origin access (CORS_ORIGINS): a front end served from a listed origin may call /api and open
// socket.io (preflights answered, with the authorization, lang and content-type headers allowed); any other
// origin gets no CORS headers, so browsers refuse it. Without the setting nothing changes.
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../src/store/index.ts';
import { buildTestApp, openTestStore, removeTempDirs } from './helper.ts';

const ALLOWED = 'https://trade.example.com';
const ALSO_ALLOWED = 'http://localhost:5173';
const OTHER = 'https://evil.example.net';

let store: Store;
const apps: FastifyInstance[] = [];

beforeAll(async () => {
  store = await openTestStore();
});

afterAll(async () => {
  for (const app of apps) await app.close();
  await store?.close();
  await removeTempDirs();
});

async function appWith(env: Record<string, string>): Promise<FastifyInstance> {
  const app = await buildTestApp(store, { env, engine: false, seed: false });
  apps.push(app);
  return app;
}

function preflight(app: FastifyInstance, origin: string, url = '/api/user/info') {
  return app.inject({
    method: 'OPTIONS',
    url,
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization,lang,content-type',
    },
  });
}

/** The headers of a socket.io polling handshake (Engine.IO 4 and 3) sent with `origin`. */
async function socketHandshake(url: string, origin: string, eio: 3 | 4) {
  return new Promise<Record<string, string | string[] | undefined>>((resolve, reject) => {
    const req = request(`${url}/socket.io/?EIO=${eio}&transport=polling`, { headers: { origin } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.headers));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('with CORS_ORIGINS set', () => {
  let app: FastifyInstance;
  let url: string;

  beforeAll(async () => {
    app = await appWith({ CORS_ORIGINS: `${ALLOWED}, ${ALSO_ALLOWED}` });
    await app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });

  it('answers a preflight from a listed origin, allowing the headers the clients send', async () => {
    for (const origin of [ALLOWED, ALSO_ALLOWED]) {
      const response = await preflight(app, origin);
      expect(response.statusCode).toBe(204);
      expect(response.headers['access-control-allow-origin']).toBe(origin);
      const allowed = String(response.headers['access-control-allow-headers'])
        .toLowerCase()
        .split(/\s*,\s*/);
      expect(allowed).toEqual(expect.arrayContaining(['authorization', 'lang', 'content-type']));
      expect(String(response.headers['access-control-allow-methods'])).toContain('POST');
    }
  });

  it('lets a listed origin read an answer, and refuses every other origin', async () => {
    const allowed = await app.inject({ url: '/api/health', headers: { origin: ALLOWED } });
    expect(allowed.headers['access-control-allow-origin']).toBe(ALLOWED);
    // So that a listed origin's client can send the code-check cookie of sms_mail / sms_send.
    expect(allowed.headers['access-control-allow-credentials']).toBe('true');
    for (const origin of [OTHER, 'https://trade.example.com.evil.net', 'null']) {
      const refused = await preflight(app, origin);
      expect(refused.headers['access-control-allow-origin']).toBeUndefined();
      const read = await app.inject({ url: '/api/health', headers: { origin } });
      expect(read.headers['access-control-allow-origin']).toBeUndefined();
      expect(read.headers['access-control-allow-credentials']).toBeUndefined();
    }
  });

  it('gives socket.io the same origins, for v4 and v2 clients', async () => {
    for (const eio of [4, 3] as const) {
      expect((await socketHandshake(url, ALLOWED, eio))['access-control-allow-origin']).toBe(ALLOWED);
      expect((await socketHandshake(url, OTHER, eio))['access-control-allow-origin']).toBeUndefined();
    }
  });
});

describe('without CORS_ORIGINS', () => {
  it('sends no CORS headers to any origin', async () => {
    const app = await appWith({});
    await app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    for (const origin of [ALLOWED, OTHER]) {
      expect((await preflight(app, origin)).headers['access-control-allow-origin']).toBeUndefined();
      const read = await app.inject({ url: '/api/health', headers: { origin } });
      expect(read.headers['access-control-allow-origin']).toBeUndefined();
      expect((await socketHandshake(url, origin, 4))['access-control-allow-origin']).toBeUndefined();
    }
  });
});
