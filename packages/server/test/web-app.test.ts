// Serving the built web app with a history fallback, and a clear answer when it is not built.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEB_APP_MISSING_TEXT } from '../src/plugins/app/web-app.ts';
import type { Store } from '../src/store/index.ts';
import { buildTestApp, openTestStore, removeTempDirs, tempDir } from './helper.ts';

const INDEX = '<!doctype html><title>Fairex</title><div id="root"></div>';
let store: Store;

beforeAll(async () => {
  store = await openTestStore();
});

afterAll(async () => {
  await store?.close();
  await removeTempDirs();
});

describe('with a built web app', () => {
  let app: FastifyInstance;

  beforeAll(async () => {
    const dist = await tempDir('fairex-dist-');
    await mkdir(join(dist, 'assets'));
    await writeFile(join(dist, 'index.html'), INDEX);
    await writeFile(join(dist, 'assets', 'app-3f2a.js'), 'console.log("app");');
    await writeFile(join(dist, 'favicon.svg'), '<svg/>');
    app = await buildTestApp(store, { seed: false, env: { WEB_DIST: dist } });
  });

  afterAll(async () => {
    await app?.close();
  });

  it.each(['/', '/dealCenter', '/components/noticeDetail?id=3', '/account/accountSet', '/recharge?id=3'])(
    'answers %s with index.html',
    async (url) => {
      const response = await app.inject(url);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toBe(INDEX);
    },
  );

  it('serves hashed assets as immutable', async () => {
    const response = await app.inject('/assets/app-3f2a.js');
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('console.log("app");');
    expect(response.headers['cache-control']).toContain('immutable');
  });

  it('serves other files without long caching', async () => {
    const response = await app.inject('/favicon.svg');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it('answers a missing file with 404, not the app', async () => {
    const response = await app.inject('/assets/missing.js');
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('root');
  });

  it('never serves files outside the folder', async () => {
    for (const url of [
      '/../package.json',
      '/%2e%2e/package.json',
      '/assets/..%2f..%2fpackage.json',
      '/assets',
      '/assets/',
    ]) {
      const response = await app.inject(url);
      expect(response.body).not.toContain('"name"');
      expect(response.statusCode).toBeLessThan(500);
    }
  });

  it('keeps /api and /socket.io out of the fallback', async () => {
    const api = await app.inject('/api/unknown');
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ type: 'error', message: 'This address does not exist.' });
    const socket = await app.inject('/socket.io/unknown');
    expect(socket.statusCode).toBe(404);
    expect(socket.body).not.toBe(INDEX);
  });

  it('does not answer other methods with the app', async () => {
    const response = await app.inject({ method: 'POST', url: '/dealCenter' });
    expect(response.statusCode).toBe(404);
    expect(response.json().type).toBe('error');
  });
});

describe('without a built web app', () => {
  let app: FastifyInstance;

  beforeAll(async () => {
    app = await buildTestApp(store, { seed: false, env: { WEB_DIST: join(await tempDir(), 'no-dist') } });
  });

  afterAll(async () => {
    await app?.close();
  });

  it('explains in plain text how to build it', async () => {
    const response = await app.inject('/dealCenter');
    expect(response.statusCode).toBe(503);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    expect(response.body).toBe(WEB_APP_MISSING_TEXT);
  });

  it('still serves the API', async () => {
    expect((await app.inject('/api/health')).json().type).toBe('ok');
  });
});
