// Helpers for the back-office tests: an app with the engine and the demo catalogue, administrators signed in
// through the real calls (password, then an authenticator code computed here as an app would), users, and
// funding through journaled engine deposits.
import { deflateSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { parseDecimal } from '@fairex/shared';
import { createAdmin } from '../../src/admin/admins.ts';
import type { AdminRole } from '../../src/admin/sessions.ts';
import type { Store } from '../../src/store/index.ts';
import { buildTestApp, createUser, loginAs, openTestStore, tempDir } from '../helper.ts';
import { passSecondFactor } from '../helper-admin.ts';

export interface BackofficeTestApp {
  app: FastifyInstance;
  store: Store;
  dataDir: string;
  close(): Promise<void>;
}

export async function backofficeApp(env: Record<string, string> = {}): Promise<BackofficeTestApp> {
  const store = await openTestStore();
  const dataDir = await tempDir('fairex-backoffice-');
  const app = await buildTestApp(store, {
    sessionCacheMs: 0,
    env: { DATA_DIR: dataDir, INVITE_CODE_REQUIRED: 'false', ...env },
  });
  await app.ready();
  return {
    app,
    store,
    dataDir,
    close: async () => {
      await app.close();
      await store.close();
    },
  };
}

export interface Reply {
  type: string;
  message: unknown;
  [key: string]: unknown;
}

export async function call(
  app: FastifyInstance,
  method: 'GET' | 'POST',
  url: string,
  payload: Record<string, unknown> = {},
  options: { token?: string | undefined; lang?: string } = {},
): Promise<Reply> {
  const headers: Record<string, string> = {};
  if (options.token !== undefined) headers.authorization = options.token;
  const query = new URLSearchParams({ lang: options.lang ?? 'en' });
  if (method === 'GET') {
    for (const [key, value] of Object.entries(payload)) query.set(key, String(value));
  }
  const response = await app.inject({
    method,
    url: `/api${url}?${query}`,
    headers,
    ...(method === 'POST' ? { payload } : {}),
  });
  if (response.statusCode >= 500) throw new Error(`HTTP ${response.statusCode} on ${url}: ${response.body}`);
  if (response.headers['content-type']?.toString().startsWith('image/')) {
    return { type: 'ok', message: response.rawPayload };
  }
  return response.json() as Reply;
}

export function expectOk<T>(reply: Reply): T {
  if (reply.type !== 'ok') throw new Error(`expected ok, got ${JSON.stringify(reply)}`);
  return reply.message as T;
}

export { authenticatorCode } from '../helper-admin.ts';

export interface TestAdmin {
  id: number;
  username: string;
  password: string;
  /** A session that passed the second factor. */
  token: string;
  secret: string;
}

let adminCounter = 0;

/** Signs in with the password only: a session that has not passed the second factor. */
export async function passwordSession(
  app: FastifyInstance,
  username: string,
  password: string,
): Promise<string> {
  const reply = await call(app, 'POST', '/admin/login', { username, password });
  return expectOk<{ token: string }>(reply).token;
}

/** A new administrator, signed in and enrolled with an authenticator, as the console does it. */
export async function newAdmin(test: BackofficeTestApp, role: AdminRole = 'admin'): Promise<TestAdmin> {
  adminCounter += 1;
  const username = `operator${adminCounter}${Math.random().toString(36).slice(2, 6)}`;
  const password = `correct-horse-${adminCounter}-battery`;
  const id = await createAdmin(test.store, { username, password, role, createdBy: null });
  const token = await passwordSession(test.app, username, password);
  const secret = await passSecondFactor(test.app, token);
  return { id, username, password, token, secret };
}

export interface TestUser {
  id: number;
  token: string;
}

export async function newUser(store: Store, input: { reviewStatus?: number } = {}): Promise<TestUser> {
  const id = await createUser(store, input);
  return { id, token: await loginAs(store, id) };
}

/** Credits a user's spot wallet through the engine, as a confirmed deposit ends. */
export async function fund(
  app: FastifyInstance,
  userId: number,
  currencyId: number,
  amount: string,
): Promise<void> {
  const currency = app.engine.ledger.currency(currencyId);
  if (!currency) throw new Error(`no currency ${currencyId}`);
  const outcome = await app.runner.submit({
    type: 'deposit',
    userId,
    currencyId,
    amount: parseDecimal(amount, currency.scale),
    memo: 'test funding',
  });
  if (outcome.code !== 0) throw new Error(`deposit refused: ${outcome.code}`);
}

export async function auditActions(
  store: Store,
  targetType: string,
  targetId: string | number,
): Promise<string[]> {
  const { rows } = await store.query<{ action: string }>(
    'select action from audit_log where target_type = $1 and target_id = $2 order by id',
    [targetType, String(targetId)],
  );
  return rows.map((row) => row.action);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, index) => {
  let value = index;
  for (let bit = 0; bit < 8; bit += 1) value = value & 1 ? 0xedb88320 ^ (value >>> 1) : value >>> 1;
  return value >>> 0;
});

function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  let crc = 0xffffffff;
  for (const byte of body) crc = (CRC_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const check = Buffer.alloc(4);
  check.writeUInt32BE((crc ^ 0xffffffff) >>> 0);
  return Buffer.concat([length, body, check]);
}

/** A small one-colour RGB PNG, a stand-in for an identity photo. */
export function photo(width: number, height: number, rgb: [number, number, number]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', pixels),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** POST /api/upload with one image, as the web client sends it; the upload's address. */
async function upload(app: FastifyInstance, token: string, data: Buffer): Promise<string> {
  const boundary = `----fairex${Math.random().toString(16).slice(2)}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="photo.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const response = await app.inject({
    method: 'POST',
    url: '/api/upload?lang=en',
    headers: { authorization: token, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
  return expectOk<string>(response.json() as Reply);
}

/** A pending real-name submission of the user with three photos, made through the user's own calls. */
export async function submitRealNameFor(
  test: BackofficeTestApp,
  user: TestUser,
  name = 'Li Lei',
): Promise<number> {
  const photos: string[] = [];
  for (const colour of [
    [200, 40, 40],
    [40, 200, 40],
    [40, 40, 200],
  ] as const) {
    photos.push(await upload(test.app, user.token, photo(320, 200, [...colour])));
  }
  expectOk(
    await call(
      test.app,
      'POST',
      '/user/real_name',
      {
        name,
        card_id: '110101199001011234',
        front_pic: photos[0],
        reverse_pic: photos[1],
        hand_pic: photos[2],
      },
      { token: user.token },
    ),
  );
  const { rows } = await test.store.query<{ id: number }>(
    `select id from real_name_submissions where user_id = $1 and status = 'pending'`,
    [user.id],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('the submission was not stored');
  return id;
}
