// Test-only preparation for the products end-to-end tests. Before the server starts, a fresh data folder gets
// its migrations and demo catalogue, one administrator and one user with a long-lived session. The server runs
// with the demo products (an IEPN sale with IEPN/USDT listed, two miners, two defi products) and with a clock
// the test can move forward (support/clock.ts), so that days pass for the accrual job as they would in
// production. The user is funded through the real deposit path and moves USDT into the ico, miner and defi
// wallets with the real transfer call; the administrator signs in over HTTP with a second factor.
import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { createAdmin } from '../packages/server/src/admin/admins.ts';
import { createSession } from '../packages/server/src/auth/sessions.ts';
import { seedDemoData } from '../packages/server/src/seed/index.ts';
import { openStore } from '../packages/server/src/store/index.ts';
import { ServerClock } from './support/clock.ts';
import { startServer, type ServerProcess } from './support/server-process.ts';
import {
  SPOT_E2E_CUSTODY_ENV,
  USDT_TRC20_DEPOSIT,
  depositThroughCustody,
  type SeededUser,
} from './spot-seed.ts';

export const DAY_MS = 86_400_000;
const ADMIN_USERNAME = 'products-chief';
const ADMIN_PASSWORD = 'correct-horse-battery-staple';
/** The user's session outlives every day the tests move the clock forward. */
const SESSION_TTL_MS = 400 * DAY_MS;

interface Envelope<T> {
  type: string;
  message: T;
}

export interface ProductsE2E {
  server: ServerProcess;
  user: SeededUser;
  /** The server's clock, which the test moves forward. */
  clock: ServerClock;
  /** Moves the server's clock `days` days forward and waits until the server reads it. */
  advanceDays(days: number): Promise<void>;
  /** The server's time now (the real time plus the offset). */
  serverNow(): number;
  /** A user call; rejects unless the envelope is ok. */
  call<T>(path: string, body?: Record<string, unknown>, method?: 'GET' | 'POST'): Promise<T>;
  /** The administrator's name and password, and the authenticator code for the server's time now. */
  adminLogin: { username: string; password: string; code(): Promise<string> };
  /** A back-office call as the signed-in administrator. */
  admin<T>(path: string, body?: Record<string, unknown>, method?: 'GET' | 'POST'): Promise<T>;
}

async function envelope<T>(response: Response, what: string): Promise<T> {
  const reply = (await response.json()) as Envelope<T>;
  if (reply.type !== 'ok') throw new Error(`${what} answered ${JSON.stringify(reply)}`);
  return reply.message;
}

async function request<T>(
  baseURL: string,
  token: string,
  path: string,
  body: Record<string, unknown> | undefined,
  method: 'GET' | 'POST',
): Promise<T> {
  const query = new URLSearchParams({ lang: 'en' });
  if (method === 'GET') for (const [key, value] of Object.entries(body ?? {})) query.set(key, String(value));
  const response = await fetch(`${baseURL}/api${path}?${query.toString()}`, {
    method,
    headers: { authorization: token, ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) },
    body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined,
  });
  return envelope<T>(response, `${method} ${path}`);
}

async function seedFolder(dataDir: string): Promise<SeededUser> {
  const store = await openStore({ dataDir });
  try {
    await seedDemoData(store);
    await createAdmin(store, {
      username: ADMIN_USERNAME,
      password: ADMIN_PASSWORD,
      role: 'admin',
      createdBy: null,
    });
    const suffix = randomBytes(4).toString('hex');
    const account = `saver-${suffix}@example.com`;
    const { rows } = await store.query<{ id: number }>(
      `insert into users (account, email, password_hash, extension_code, review_status)
       values ($1, $1, 'not-a-real-hash', $2, 2) returning id`,
      [account, `PRD${suffix}`.toUpperCase()],
    );
    const id = rows[0]?.id;
    if (id === undefined) throw new Error('the user insert returned nothing');
    const { token } = await createSession(store, { userId: id, ttlMs: SESSION_TTL_MS });
    return { id, account, token };
  } finally {
    await store.close();
  }
}

/**
 * Starts the server on a prepared folder, funds the user with `usdt` USDT through a deposit, moves `wallets`
 * into the product wallets, and signs the administrator in.
 */
export async function startProductsServer(
  dataDir: string,
  wallets: { ico: string; miner: string; defi: string },
): Promise<ProductsE2E> {
  const user = await seedFolder(dataDir);
  const clock = new ServerClock(dataDir);
  const server = await startServer(dataDir, {
    ...clock.env,
    MARKET_MAKER: 'off',
    ...SPOT_E2E_CUSTODY_ENV,
  });
  try {
    await depositThroughCustody(server.baseURL, user, { ...USDT_TRC20_DEPOSIT, amount: '100000000000' });
    for (const [wallet, number] of Object.entries(wallets))
      await request(
        server.baseURL,
        user.token,
        '/wallet/change',
        {
          from_field: 'change',
          to_field: wallet,
          currency_id: 3,
          number,
        },
        'POST',
      );
    const serverNow = () => clock.now();
    const auth: Authenticator = { secret: null, lastStep: -1 };
    let adminToken = await signInAdministrator(server.baseURL, serverNow, auth);
    return {
      server,
      user,
      adminLogin: {
        username: ADMIN_USERNAME,
        password: ADMIN_PASSWORD,
        code: () => nextCode(auth, serverNow),
      },
      clock,
      serverNow,
      advanceDays: (days) => clock.advance(days * DAY_MS, []),
      call: (path, body, method = 'POST') => request(server.baseURL, user.token, path, body, method),
      async admin<T>(path: string, body?: Record<string, unknown>, method: 'GET' | 'POST' = 'POST') {
        try {
          return await request<T>(server.baseURL, adminToken, path, body, method);
        } catch (error) {
          // An administrator's session lasts hours; once the clock has moved days it has ended: sign in again.
          if (!String(error).includes('"type":"999"')) throw error;
          adminToken = await signInAdministrator(server.baseURL, serverNow, auth);
          return request<T>(server.baseURL, adminToken, path, body, method);
        }
      },
    };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** One server's administrator authenticator: its secret once enrolled, and the last 30-second step used. */
interface Authenticator {
  secret: string | null;
  lastStep: number;
}

/**
 * The authenticator's next code on the server's clock (which may run ahead of the real one). The server takes
 * a code one 30-second step either side of its time, and never a step twice: each code here is of a later step
 * than the one before, waiting when the next one is not yet acceptable.
 */
async function nextCode(auth: Authenticator, serverNow: () => number): Promise<string> {
  for (;;) {
    const step = Math.floor(serverNow() / 30_000);
    const use = Math.max(step, auth.lastStep + 1);
    if (use <= step + 1) {
      auth.lastStep = use;
      const secret = Secret.fromBase32(auth.secret ?? '');
      return new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret }).generate({
        timestamp: use * 30_000,
      });
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

/** Signs the administrator in over HTTP: password, then the authenticator (enrolled the first time). */
async function signInAdministrator(
  baseURL: string,
  serverNow: () => number,
  auth: Authenticator,
): Promise<string> {
  const login = await envelope<{ token: string; second_factor?: string }>(
    await fetch(`${baseURL}/api/admin/login?lang=en`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: ADMIN_USERNAME, password: ADMIN_PASSWORD }),
    }),
    'admin login',
  );
  if (auth.secret === null) {
    const { secret } = await request<{ secret: string }>(
      baseURL,
      login.token,
      '/backoffice/second_factor/enrol',
      {},
      'POST',
    );
    auth.secret = secret;
    const code = await nextCode(auth, serverNow);
    await request(baseURL, login.token, '/backoffice/second_factor/confirm', { code }, 'POST');
  } else {
    await request(
      baseURL,
      login.token,
      '/backoffice/second_factor/verify',
      { code: await nextCode(auth, serverNow) },
      'POST',
    );
  }
  return login.token;
}
