// Access to private calls: every account, security, upload and administrator route is listed as public or
// private; every private one answers 999 without a valid token (and to the wrong kind of token); and no
// private call lets one user read or change another's data, whatever ids the request names.
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.ts';
import { BODY_LIMIT_BYTES, appPlugin } from '../../src/app.ts';
import { openTestStore, removeTempDirs, tempDir, testConfig } from '../helper.ts';
import { passSecondFactor } from '../helper-admin.ts';
import { createAdmin } from '../../src/admin/admins.ts';
import type { AccountsTestApp, RegisteredUser } from './helpers.ts';
import { call, PASSWORD, registerByEmail, uploadFile } from './helpers.ts';
import { makePng } from './images.ts';

type Method = 'GET' | 'POST';
const USER_PRIVATE: [Method, string][] = [
  ['GET', '/user/info'],
  ['POST', '/user/info'],
  ['GET', '/user/center'],
  ['POST', '/user/center'],
  ['POST', '/user/logout'],
  ['POST', '/user/real_name'],
  ['POST', '/upload'],
  ['GET', '/upload/image'],
  ['POST', '/safe/email'],
  ['POST', '/safe/mobile'],
  ['POST', '/safe/password'],
  ['GET', '/safe/google'],
  ['POST', '/safe/google'],
  ['POST', '/safe/google/secret'],
  ['POST', '/safe/google/bind'],
  ['POST', '/safe/google/unbind'],
];
const ADMIN_PRIVATE: [Method, string][] = [
  ['POST', '/admin/logout'],
  ['GET', '/admin/me'],
  ['GET', '/admin/real_name/list'],
  ['GET', '/admin/real_name/detail'],
  ['POST', '/admin/real_name/approve'],
  ['POST', '/admin/real_name/reject'],
  ['GET', '/admin/upload'],
  ['GET', '/admin/outbox'],
  ['GET', '/admin/audit'],
  ['POST', '/admin/invite_codes'],
  ['POST', '/admin/admins'],
];
const PUBLIC: [Method, string][] = [
  ['POST', '/user/check'],
  ['POST', '/user/check_email'],
  ['POST', '/user/check_mobile'],
  ['POST', '/user/register'],
  ['POST', '/user/login'],
  ['POST', '/user/forget'],
  ['GET', '/user/countries'],
  ['GET', '/user/register_config'],
  ['POST', '/sms_send'],
  ['POST', '/sms_mail'],
  ['POST', '/admin/login'],
];
// The account areas; other areas under /api/admin (wallets, back office) have tests of their own.
const AREAS =
  /^\/api\/(user|safe|sms_send|sms_mail|upload|admin\/(login|logout|me|real_name|upload|outbox|audit|invite_codes|admins))\b/;

let test: AccountsTestApp;
let routes: [Method, string][];
let alice: RegisteredUser;
let bob: RegisteredUser;
let alicePhoto: string;
let adminToken: string;

beforeAll(async () => {
  const store: Store = await openTestStore();
  const dataDir = await tempDir('fairex-access-');
  // Built by hand so that the route hook is in place before any route is declared.
  const app = Fastify({ logger: false, bodyLimit: BODY_LIMIT_BYTES });
  routes = [];
  app.addHook('onRoute', (options) => {
    const methods = Array.isArray(options.method) ? options.method : [options.method];
    for (const method of methods as string[]) {
      if ((method === 'GET' || method === 'POST') && AREAS.test(options.url)) {
        routes.push([method, options.url.replace(/^\/api/, '')]);
      }
    }
  });
  await app.register(appPlugin, {
    config: testConfig({
      DATA_DIR: dataDir,
      INVITE_CODE_REQUIRED: 'false',
      CODE_SENDS_PER_IP_PER_HOUR: '100000',
    }),
    store,
    seed: false,
    sessionCacheMs: 0,
  });
  await app.ready();
  test = { app, store, dataDir, close: async () => (await app.close(), await store.close()) };
  alice = await registerByEmail(test);
  bob = await registerByEmail(test);
  alicePhoto = (await uploadFile(app, alice.token, makePng(120, 90))).message as string;
  await createAdmin(store, {
    username: 'access-admin',
    password: 'a-long-admin-password',
    role: 'admin',
    createdBy: null,
  });
  adminToken = (
    (await call(app, '/admin/login', { username: 'access-admin', password: 'a-long-admin-password' }))
      .message as {
      token: string;
    }
  ).token;
  await passSecondFactor(app, adminToken);
});

afterAll(async () => {
  await test?.close();
  await removeTempDirs();
});

const key = ([method, url]: [Method, string]) => `${method} ${url}`;

describe('route inventory', () => {
  it('lists every account route as public or private', () => {
    const known = new Set([...USER_PRIVATE, ...ADMIN_PRIVATE, ...PUBLIC].map(key));
    expect(routes.map(key).filter((route) => !known.has(route))).toEqual([]);
    const registered = new Set(routes.map(key));
    expect([...known].filter((route) => !registered.has(route))).toEqual([]);
  });
});

describe('999 without a valid token', () => {
  const tokens: [string, () => string | undefined][] = [
    ['no token', () => undefined],
    ['a malformed token', () => 'null'],
    ['an unknown token', () => 'A'.repeat(43)],
    ['an administrator token on a user call', () => adminToken],
  ];
  for (const [name, token] of tokens) {
    it.each(USER_PRIVATE)(`%s %s with ${name}`, async (method, url) => {
      const reply = await call(
        test.app,
        url,
        {},
        { method, ...(token() === undefined ? {} : { token: token() as string }) },
      );
      expect(reply.type).toBe('999');
      expect(reply.message).toBe('You are not logged in or your login has expired. Please log in again.');
    });
  }

  it.each(ADMIN_PRIVATE)('%s %s answers 999 to no token and to a user token', async (method, url) => {
    for (const token of [undefined, alice.token]) {
      const reply = await call(
        test.app,
        url,
        { id: 1, reason: 'x' },
        { method, ...(token === undefined ? {} : { token }) },
      );
      expect(reply).toEqual({ type: '999', message: 'Please log in as an administrator.' });
    }
  });

  it('answers 999 to a revoked and to an expired token', async () => {
    const user = await registerByEmail(test);
    await call(test.app, '/user/logout', {}, { token: user.token });
    expect((await call(test.app, '/user/info', {}, { token: user.token, method: 'GET' })).type).toBe('999');
    const other = await registerByEmail(test);
    await test.store.query(
      `update sessions set expires_at = now() - interval '1 second' where user_id = $1`,
      [other.id],
    );
    expect((await call(test.app, '/user/info', {}, { token: other.token, method: 'GET' })).type).toBe('999');
  });
});

describe('administrator calls with a password-only session', () => {
  // Only the logout takes such a session (as the back office's does); every other call, reading or
  // changing, first needs the authenticator code.
  const GUARDED = ADMIN_PRIVATE.filter(([, url]) => url !== '/admin/logout');
  const refusal = { type: 'error', message: 'Enter the code from your authenticator app first.' };
  let newcomers = 0;

  async function adminState(): Promise<string> {
    const { rows } = await test.store.query(
      `select (select count(*)::int from audit_log) as audits,
              (select count(*)::int from admins) as admins,
              (select count(*)::int from operator_invite_codes) as codes,
              (select count(*)::int from admin_sessions where revoked_at is null) as sessions,
              (select count(*)::int from real_name_submissions where status <> 'pending') as decided`,
    );
    return JSON.stringify(rows[0]);
  }

  async function passwordSession(username: string): Promise<string> {
    const reply = await call(test.app, '/admin/login', { username, password: 'a-long-admin-password' });
    return (reply.message as { token: string }).token;
  }

  it.each(GUARDED)('%s %s asks an administrator without an authenticator to enrol', async (method, url) => {
    newcomers += 1;
    const username = `newcomer${newcomers}`;
    await createAdmin(test.store, {
      username,
      password: 'a-long-admin-password',
      role: 'admin',
      createdBy: null,
    });
    const token = await passwordSession(username);
    const before = await adminState();
    const reply = await call(
      test.app,
      url,
      { id: 1, reason: 'x', username: 'someone', password: 'another-long-password', role: 'admin' },
      { method, token },
    );
    expect(reply).toEqual({ ...refusal, second_factor: 'enrol' });
    expect(await adminState()).toBe(before);
  });

  it.each(GUARDED)('%s %s asks an enrolled administrator for the code', async (method, url) => {
    const token = await passwordSession('access-admin');
    const before = await adminState();
    const reply = await call(
      test.app,
      url,
      { id: 1, reason: 'x', username: 'someone', password: 'another-long-password', role: 'admin' },
      { method, token },
    );
    expect(reply).toEqual({ ...refusal, second_factor: 'required' });
    expect(await adminState()).toBe(before);
  });

  it('lets a password-only session log out', async () => {
    const token = await passwordSession('access-admin');
    expect((await call(test.app, '/admin/logout', {}, { token })).type).toBe('ok');
    expect((await call(test.app, '/admin/me', {}, { token, method: 'GET' })).type).toBe('999');
  });
});

describe("one user cannot read or change another's data", () => {
  async function aliceState(): Promise<string> {
    const { rows } = await test.store.query(
      `select u.password_hash, u.email, u.phone, u.totp_secret, u.totp_pending_secret, u.review_status,
              (select count(*)::int from sessions s where s.user_id = u.id and s.revoked_at is null) as sessions,
              (select count(*)::int from real_name_submissions r where r.user_id = u.id) as submissions,
              (select count(*)::int from uploads p where p.user_id = u.id) as uploads
         from users u where u.id = $1`,
      [alice.id],
    );
    return JSON.stringify(rows[0]);
  }

  it.each(USER_PRIVATE)("%s %s with Bob's token naming Alice's records", async (method, url) => {
    const before = await aliceState();
    const aliceId = alicePhoto.split('=')[1] ?? '';
    const payload = {
      id: url === '/upload/image' ? aliceId : alice.id,
      user_id: alice.id,
      uid: alice.id,
      account: alice.account,
      email: alice.account,
      user_string: alice.account,
      front_pic: alicePhoto,
      reverse_pic: alicePhoto,
      hand_pic: alicePhoto,
      name: 'Mallory',
      card_id: 'M1234567',
      old_password: PASSWORD,
      password: 'takeover1',
      re_password: 'takeover1',
      code: '123456',
    };
    const response = await test.app.inject({
      method,
      url: `/api${url}?lang=en${method === 'GET' ? `&${new URLSearchParams(payload as unknown as Record<string, string>)}` : ''}`,
      headers: { authorization: bob.token },
      ...(method === 'POST' ? { payload } : {}),
    });
    expect(response.statusCode).toBeLessThan(500);
    const body = response.body;
    expect(body).not.toContain(alice.account);
    expect(body).not.toContain(alice.extensionCode);
    if (url === '/upload/image') expect(response.json()).toMatchObject({ type: 'error' });
    expect(await aliceState()).toBe(before);
    if (url === '/safe/password' || url === '/user/logout') {
      // Bob's own session ended; log him in again for the next call.
      const takenOver = await call(test.app, '/user/login', { account: bob.account, password: 'takeover1' });
      bob.token =
        takenOver.type === 'ok'
          ? String(takenOver.message)
          : String(
              (await call(test.app, '/user/login', { account: bob.account, password: PASSWORD })).message,
            );
    }
  });

  it('reads user info and the account centre of the token, never of an id in the request', async () => {
    const info = await call(
      test.app,
      '/user/info',
      { id: String(alice.id), user_id: String(alice.id) },
      { token: bob.token, method: 'GET' },
    );
    expect(info.message).toMatchObject({ id: bob.id, account: bob.account });
  });

  it('lets the owner and an administrator fetch a photo', async () => {
    const own = await test.app.inject({
      method: 'GET',
      url: alicePhoto,
      headers: { authorization: alice.token },
    });
    expect(own.headers['content-type']).toBe('image/png');
    const id = alicePhoto.split('=')[1] ?? '';
    const byAdmin = await test.app.inject({
      method: 'GET',
      url: `/api/admin/upload?id=${id}`,
      headers: { authorization: adminToken },
    });
    expect(byAdmin.headers['content-type']).toBe('image/png');
    const { rows } = await test.store.query(
      `select action, target_id from audit_log where action = 'upload.read'`,
    );
    expect(rows).toEqual([{ action: 'upload.read', target_id: id }]);
  });

  it('never serves private files by a static path', async () => {
    const id = alicePhoto.split('=')[1] ?? '';
    for (const path of [
      `/private/uploads/${id}.png`,
      `/uploads/${id}.png`,
      `/api/private/uploads/${id}.png`,
    ]) {
      const response = await test.app.inject({ method: 'GET', url: path });
      expect(response.headers['content-type']).not.toBe('image/png');
    }
  });
});
