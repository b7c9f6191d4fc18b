// Helpers for the account route tests: an app on a fresh store with a private data folder, calls through
// inject() from a chosen client address, codes read from the dev outbox, and users made through the API.
import type { FastifyInstance } from 'fastify';
import type { Store } from '../../src/store/index.ts';
import { buildTestApp, openTestStore, tempDir } from '../helper.ts';

export interface AccountsTestApp {
  app: FastifyInstance;
  store: Store;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * An app with codes in the dev outbox and invite codes optional unless a test asks otherwise. The per-address send limit is raised so that long tables of bad
 * inputs from one address do not run into it; limit tests lower it again.
 */
export async function accountsApp(env: Record<string, string> = {}): Promise<AccountsTestApp> {
  const store = await openTestStore();
  const dataDir = await tempDir('fairex-accounts-');
  const app = await buildTestApp(store, {
    seed: false,
    sessionCacheMs: 0,
    env: { DATA_DIR: dataDir, INVITE_CODE_REQUIRED: 'false', CODE_SENDS_PER_IP_PER_HOUR: '100000', ...env },
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

export interface CallOptions {
  token?: string;
  ip?: string;
  lang?: string;
  method?: 'GET' | 'POST';
}

let addressCounter = 0;
/** A client address no other test used: keeps per-address limits of one test from touching another. */
export function freshIp(): string {
  addressCounter += 1;
  return `10.${(addressCounter >> 16) & 255}.${(addressCounter >> 8) & 255}.${addressCounter & 255}`;
}

export async function call(
  app: FastifyInstance,
  url: string,
  payload: Record<string, unknown> = {},
  options: CallOptions = {},
): Promise<Reply> {
  const method = options.method ?? 'POST';
  const headers: Record<string, string> = {};
  if (options.token !== undefined) headers.authorization = options.token;
  const query = `lang=${options.lang ?? 'en'}`;
  const response = await app.inject({
    method,
    url: `/api${url}?${query}${method === 'GET' ? `&${new URLSearchParams(payload as Record<string, string>)}` : ''}`,
    headers,
    remoteAddress: options.ip ?? '127.0.0.1',
    ...(method === 'POST' ? { payload } : {}),
  });
  if (response.statusCode >= 500) throw new Error(`HTTP ${response.statusCode}: ${response.body}`);
  return response.json() as Reply;
}

/** The code in the latest dev-outbox message to `recipient`. */
export async function lastCode(store: Store, recipient: string): Promise<string> {
  const { rows } = await store.query<{ body: string | null }>(
    `select body from outbound_messages where recipient = $1 order by id desc limit 1`,
    [recipient],
  );
  const match = /\b(\d{6})\b/.exec(rows[0]?.body ?? '');
  if (!match?.[1]) throw new Error(`no code was sent to ${recipient}`);
  return match[1];
}

/** Lets the 60-second resend interval pass for a destination (the clock cannot be moved in SQL). */
export async function ageCodes(store: Store, destination: string, seconds = 61): Promise<void> {
  await store.query(
    `update verification_codes set created_at = created_at - make_interval(secs => $2) where destination = $1`,
    [destination, seconds],
  );
}

export const PASSWORD = 'secret123';

export interface RegisteredUser {
  id: number;
  token: string;
  account: string;
  extensionCode: string;
}

let emailCounter = 0;

export function uniqueEmail(prefix = 'user'): string {
  emailCounter += 1;
  return `${prefix}${emailCounter}-${Date.now().toString(36)}@example.com`;
}

/** Registers by e-mail through the API (code from the outbox) and logs in. */
export async function registerByEmail(
  test: AccountsTestApp,
  options: { email?: string; password?: string; inviteCode?: string; ip?: string } = {},
): Promise<RegisteredUser> {
  const email = options.email ?? uniqueEmail();
  const password = options.password ?? PASSWORD;
  const ip = options.ip ?? freshIp();
  const sent = await call(test.app, '/sms_mail', { user_string: email, type: 'register' }, { ip });
  if (sent.type !== 'ok') throw new Error(`sms_mail: ${String(sent.message)}`);
  const code = await lastCode(test.store, email);
  const registered = await call(
    test.app,
    '/user/register',
    {
      type: 'email',
      user_string: email,
      code,
      password,
      re_password: password,
      ...(options.inviteCode === undefined ? {} : { extension_code: options.inviteCode }),
    },
    { ip },
  );
  if (registered.type !== 'ok') throw new Error(`register: ${String(registered.message)}`);
  const loggedIn = await call(test.app, '/user/login', { type: 'email', email, password }, { ip });
  if (loggedIn.type !== 'ok') throw new Error(`login: ${String(loggedIn.message)}`);
  const data = loggedIn.data as { token: string; user: { id: number; extension_code: string } };
  return {
    id: data.user.id,
    token: data.token,
    account: email,
    extensionCode: data.user.extension_code,
  };
}

/** Registers a phone number (with its calling code) through the API, the code read from the outbox. */
export async function registerByMobile(
  test: AccountsTestApp,
  mobile: string,
  areaCode: string,
): Promise<void> {
  const ip = freshIp();
  const sent = await call(test.app, '/sms_send', { user_string: mobile, country_code: areaCode }, { ip });
  if (sent.type !== 'ok') throw new Error(`sms_send: ${String(sent.message)}`);
  const code = await lastCode(test.store, `+${areaCode}${mobile}`);
  const fields = {
    type: 'mobile',
    mobile,
    area_code: areaCode,
    code,
    password: PASSWORD,
    re_password: PASSWORD,
  };
  const registered = await call(test.app, '/user/register', fields, { ip });
  if (registered.type !== 'ok') throw new Error(`register: ${String(registered.message)}`);
}

/** POST /api/upload with one file. */
export async function uploadFile(
  app: FastifyInstance,
  token: string | undefined,
  data: Buffer,
  options: { filename?: string; contentType?: string; lang?: string } = {},
): Promise<Reply> {
  const { multipartBody } = await import('./images.ts');
  const body = multipartBody(data, options);
  const response = await app.inject({
    method: 'POST',
    url: `/api/upload?lang=${options.lang ?? 'en'}`,
    headers: { ...body.headers, ...(token === undefined ? {} : { authorization: token }) },
    payload: body.payload,
  });
  if (response.statusCode >= 500) throw new Error(`HTTP ${response.statusCode}: ${response.body}`);
  return response.json() as Reply;
}
