// Test-only preparation for the P2P end-to-end flow. Before the server starts on a fresh data folder, the
// store gets its migrations, the demo catalogue, an administrator and three users whose accounts are a month
// old (the merchant threshold asks for seven days). Everything else goes through the running server the way
// it happens in production: identity photos uploaded and the real names approved by the administrator (who
// enrols an authenticator), the merchant's USDT deposited through a signed custody callback, and the
// merchant's own authenticator enrolled for releases. The server runs on a clock the test can move forward
// (support/clock.ts). Nothing here is reachable from a running server.
import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { createAdmin } from '../packages/server/src/admin/admins.ts';
import { createSession } from '../packages/server/src/auth/sessions.ts';
import { seedDemoData } from '../packages/server/src/seed/index.ts';
import { openStore } from '../packages/server/src/store/index.ts';
import { ADMIN_PASSWORD, ADMIN_USERNAME, photo, upload } from './admin-seed.ts';
import { SPOT_E2E_CUSTODY_ENV, USDT_TRC20_DEPOSIT, depositThroughCustody } from './spot-seed.ts';
import { ServerClock } from './support/clock.ts';
import { startServer, type ServerProcess } from './support/server-process.ts';

export interface P2pUser {
  id: number;
  account: string;
  token: string;
  /** The approved real name, which the payment methods must carry. */
  name: string;
}

/** An authenticator that never offers a code twice: the server accepts each 30-second step once. */
export class Authenticator {
  private readonly totp: TOTP;
  private readonly now: () => number;
  private lastStep = -1;

  /** `now`: the server's clock (a test may run it ahead of the real one). */
  constructor(secret: string, now: () => number) {
    this.totp = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
    this.now = now;
  }

  /** The next unused code: this step's, or the next step's (accepted one step ahead), else after a wait. */
  async code(): Promise<string> {
    for (;;) {
      const now = Math.floor(this.now() / 30_000);
      const step = Math.max(now, this.lastStep + 1);
      if (step <= now + 1) {
        this.lastStep = step;
        return this.totp.generate({ timestamp: step * 30_000 + 1_000 });
      }
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }
}

export interface P2pScenario {
  server: ServerProcess;
  /** The server's clock, which the test moves forward to let payment windows and appeal waits pass. */
  clock: ServerClock;
  merchant: P2pUser;
  buyer: P2pUser;
  secondBuyer: P2pUser;
  /** The merchant's authenticator (releases). */
  merchantCodes: Authenticator;
  /** The administrator's token (second factor passed) and authenticator (sign-in, decisions). */
  adminToken: string;
  adminCodes: Authenticator;
}

interface Envelope<T> {
  type: string;
  message: T;
}

export async function call<T>(
  baseURL: string,
  path: string,
  token: string,
  body?: Record<string, unknown>,
): Promise<T> {
  const reply = (await fetch(`${baseURL}/api${path}${path.includes('?') ? '&' : '?'}lang=en`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: token, 'content-type': 'application/json' },
    body: body === undefined ? null : JSON.stringify(body),
  }).then((response) => response.json())) as Envelope<T>;
  if (reply.type !== 'ok') throw new Error(`${path} answered ${JSON.stringify(reply)}`);
  return reply.message;
}

const NAMES = ['Chan Tai Man', 'Li Xiao Hong', 'Wong Ka Ming'] as const;
const CARD_IDS = ['110101199003074518', '110101198507120033', '440106199212253019'] as const;

async function seedFolder(dataDir: string): Promise<Omit<P2pUser, 'name'>[]> {
  const store = await openStore({ dataDir });
  try {
    await seedDemoData(store);
    await createAdmin(store, {
      username: ADMIN_USERNAME,
      password: ADMIN_PASSWORD,
      role: 'admin',
      createdBy: null,
    });
    const users: Omit<P2pUser, 'name'>[] = [];
    for (const prefix of ['merchant', 'buyer', 'buyer2']) {
      const suffix = randomBytes(4).toString('hex');
      const account = `${prefix}-${suffix}@example.com`;
      const { rows } = await store.query<{ id: number }>(
        `insert into users (account, email, password_hash, extension_code, created_at)
         values ($1, $1, 'not-a-real-hash', $2, now() - interval '30 days') returning id`,
        [account, `P2P${suffix}`.toUpperCase()],
      );
      const id = rows[0]?.id;
      if (id === undefined) throw new Error('the user insert returned nothing');
      const { token } = await createSession(store, { userId: id, ttlMs: 6 * 3_600_000 });
      users.push({ id, account, token });
    }
    return users;
  } finally {
    await store.close();
  }
}

/** The scenario: folder, server, real names approved, the merchant funded with 10,000 USDT. */
export async function startP2pScenario(
  dataDir: string,
  env: Record<string, string> = {},
): Promise<P2pScenario> {
  const [merchantSeed, buyerSeed, secondSeed] = await seedFolder(dataDir);
  if (!merchantSeed || !buyerSeed || !secondSeed) throw new Error('the users were not seeded');
  const clock = new ServerClock(dataDir);
  const server = await startServer(dataDir, {
    ...clock.env,
    MARKET_MAKER: 'off',
    INVITE_CODE_REQUIRED: 'false',
    ...SPOT_E2E_CUSTODY_ENV,
    ...env,
  });
  try {
    const { baseURL } = server;
    const login = await call<{ token: string }>(baseURL, '/admin/login', '', {
      username: ADMIN_USERNAME,
      password: ADMIN_PASSWORD,
    });
    const adminToken = login.token;
    const { secret } = await call<{ secret: string }>(
      baseURL,
      '/backoffice/second_factor/enrol',
      adminToken,
      {},
    );
    const adminCodes = new Authenticator(secret, () => clock.now());
    await call(baseURL, '/backoffice/second_factor/confirm', adminToken, { code: await adminCodes.code() });

    const users: P2pUser[] = [];
    for (const [index, seed] of [merchantSeed, buyerSeed, secondSeed].entries()) {
      const photos: string[] = [];
      for (const colour of [
        [47, 107, 255],
        [14, 160, 110],
        [200, 120, 40],
      ] as const) {
        photos.push(await upload(baseURL, seed.token, photo([...colour])));
      }
      const name = NAMES[index] ?? 'Chan Tai Man';
      await call(baseURL, '/user/real_name', seed.token, {
        name,
        card_id: CARD_IDS[index],
        front_pic: photos[0],
        reverse_pic: photos[1],
        hand_pic: photos[2],
      });
      users.push({ ...seed, name });
    }
    const submissions = await call<{ data: { id: number; user_id: number }[] }>(
      baseURL,
      '/backoffice/real_name?status=pending',
      adminToken,
    );
    for (const submission of submissions.data) {
      await call(baseURL, '/backoffice/real_name/approve', adminToken, { id: submission.id });
    }
    const [merchant, buyer, secondBuyer] = users as [P2pUser, P2pUser, P2pUser];
    await depositThroughCustody(baseURL, merchant, { ...USDT_TRC20_DEPOSIT, amount: '10000000000' });

    const enrolment = await call<{ secret: string }>(baseURL, '/safe/google/secret', merchant.token, {});
    const merchantCodes = new Authenticator(enrolment.secret, () => clock.now());
    await call(baseURL, '/safe/google/bind', merchant.token, { code: await merchantCodes.code() });
    return { server, clock, merchant, buyer, secondBuyer, merchantCodes, adminToken, adminCodes };
  } catch (error) {
    await server.stop();
    throw error;
  }
}
