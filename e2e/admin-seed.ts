// Test-only preparation for the back-office flow. Before its server starts, a fresh data folder gets its
// migrations, the demo catalogue, one administrator (a known password, no authenticator yet: the browser
// enrols one) and two users with live sessions. Once the server runs, the users act through the real calls:
// one uploads three photos and asks for real-name review; the other is funded by a signed custody callback
// for a confirmed deposit and asks to withdraw. Nothing here is reachable from a running server.
import { createHash, randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { createAdmin } from '../packages/server/src/admin/admins.ts';
import { createSession } from '../packages/server/src/auth/sessions.ts';
import { seedDemoData } from '../packages/server/src/seed/index.ts';
import { openStore } from '../packages/server/src/store/index.ts';
import { custodySign } from '../packages/server/src/wallets/custody/protocol.ts';
import { authenticatorCode } from '../packages/server/test/helper-admin.ts';
import { startServer, type ServerProcess } from './support/server-process.ts';

/** The custody key of this test's own server; it signs nothing anywhere else. */
const CUSTODY_KEY = `admin-e2e-${randomBytes(8).toString('hex')}`;

export const ADMIN_USERNAME = 'chief';
export const ADMIN_PASSWORD = 'correct-horse-battery-staple';
export const USDT = 3;
export const BTC = 1;
/** A valid TRON address (the USDT contract's), which the withdrawal check accepts. */
export const TRON_ADDRESS = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

export interface SeededUser {
  id: number;
  account: string;
  token: string;
}

export interface AdminScenario {
  server: ServerProcess;
  applicant: SeededUser;
  withdrawer: SeededUser;
  /** Two traders, one holding 1 BTC and one 10,000 USDT. */
  seller: SeededUser;
  buyer: SeededUser;
  /** The real-name submission and the withdrawal waiting for the administrator. */
  submissionId: number;
  withdrawalId: number;
}

/** The withdrawal code stored for the withdrawer before the server starts (see seedFolder). */
const WITHDRAW_CODE = '246810';

async function insertUser(
  store: Awaited<ReturnType<typeof openStore>>,
  prefix: string,
  reviewStatus: number,
): Promise<SeededUser> {
  const suffix = randomBytes(4).toString('hex');
  const account = `${prefix}-${suffix}@example.com`;
  const { rows } = await store.query<{ id: number }>(
    `insert into users (account, email, password_hash, extension_code, review_status)
     values ($1, $1, 'not-a-real-hash', $2, $3) returning id`,
    [account, `ADM${suffix}`.toUpperCase(), reviewStatus],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('the user insert returned nothing');
  const { token } = await createSession(store, { userId: id, ttlMs: 6 * 3_600_000 });
  return { id, account, token };
}

async function seedFolder(
  dataDir: string,
): Promise<{ applicant: SeededUser; withdrawer: SeededUser; seller: SeededUser; buyer: SeededUser }> {
  const store = await openStore({ dataDir });
  try {
    await seedDemoData(store);
    await createAdmin(store, {
      username: ADMIN_USERNAME,
      password: ADMIN_PASSWORD,
      role: 'admin',
      createdBy: null,
    });
    const withdrawer = await insertUser(store, 'saver', 2);
    // Withdrawing needs a second factor: the code the withdrawal-code call would e-mail, stored the same way.
    const salt = randomBytes(16).toString('hex');
    await store.query(
      `insert into verification_codes (purpose, channel, destination, user_id, code_hash, salt, expires_at)
       values ('withdraw', 'email', $1, $2, $3, $4, now() + interval '1 hour')`,
      [
        withdrawer.account,
        withdrawer.id,
        createHash('sha256').update(`${salt}:${WITHDRAW_CODE}`).digest('hex'),
        salt,
      ],
    );
    return {
      applicant: await insertUser(store, 'applicant', 0),
      withdrawer,
      seller: await insertUser(store, 'seller', 2),
      buyer: await insertUser(store, 'buyer', 2),
    };
  } finally {
    await store.close();
  }
}

interface Envelope<T> {
  type: string;
  message: T;
}

async function api<T>(baseURL: string, path: string, token: string, body: unknown): Promise<T> {
  const reply = (await fetch(`${baseURL}/api${path}?lang=en`, {
    method: 'POST',
    headers: { authorization: token, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).then((response) => response.json())) as Envelope<T>;
  if (reply.type !== 'ok') throw new Error(`${path} answered ${JSON.stringify(reply)}`);
  return reply.message;
}

/**
 * Passes the second factor for a fresh administrator's password session over HTTP, as the console does it:
 * enrol an authenticator, then confirm with the code the app would show. The administrator calls under
 * /api/admin refuse the session until then.
 */
export async function passSecondFactor(baseURL: string, token: string): Promise<void> {
  const { secret } = await api<{ secret: string }>(baseURL, '/backoffice/second_factor/enrol', token, {});
  await api(baseURL, '/backoffice/second_factor/confirm', token, { code: authenticatorCode(secret) });
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

/** A small picture standing in for an identity photo: a card outline on a coloured background. */
export function photo(rgb: [number, number, number]): Buffer {
  const width = 480;
  const height = 300;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y += 1) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x += 1) {
      const card = x > 60 && x < 420 && y > 50 && y < 250;
      const edge = card && (x < 64 || x > 416 || y < 54 || y > 246);
      const line = card && y > 150 && y < 160 && x > 200 && x < 380;
      const value: [number, number, number] = edge || line ? [40, 48, 64] : card ? [236, 240, 246] : rgb;
      row.set(value, 1 + x * 3);
    }
    rows.push(row);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.concat(rows))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

export async function upload(baseURL: string, token: string, data: Buffer): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(data)], { type: 'image/png' }), 'photo.png');
  const reply = (await fetch(`${baseURL}/api/upload?lang=en`, {
    method: 'POST',
    headers: { authorization: token },
    body: form,
  }).then((response) => response.json())) as Envelope<string>;
  if (reply.type !== 'ok') throw new Error(`upload answered ${JSON.stringify(reply)}`);
  return reply.message;
}

interface ChainCoin {
  currency: number;
  mainCoinType: string;
  coinType: string;
  decimals: number;
}

const USDT_TRC20: ChainCoin = { currency: USDT, mainCoinType: '195', coinType: TRON_ADDRESS, decimals: 6 };
const BITCOIN: ChainCoin = { currency: BTC, mainCoinType: '0', coinType: '0', decimals: 8 };

/** Funds a user with a confirmed chain deposit, reported by a signed custody callback. */
async function deposit(
  baseURL: string,
  user: SeededUser,
  coin: ChainCoin,
  amountMinor: string,
): Promise<void> {
  const { address } = await api<{ address: string }>(baseURL, '/wallet/get_in_address', user.token, {
    currency: coin.currency,
    type: 0,
  });
  // A chain transaction id: 64 hex digits, which every supported chain accepts.
  const txId = randomBytes(32).toString('hex');
  const body = JSON.stringify({
    address,
    amount: amountMinor,
    decimals: String(coin.decimals),
    fee: '0',
    mainCoinType: coin.mainCoinType,
    coinType: coin.coinType,
    txId,
    tradeId: `admin-e2e-${txId.slice(0, 16)}`,
    tradeType: 1,
    status: 3,
    businessId: '',
    memo: '',
  });
  const timestamp = String(Date.now());
  const nonce = randomBytes(4).toString('hex');
  const sign = custodySign(body, CUSTODY_KEY, nonce, timestamp);
  const reply = await fetch(`${baseURL}/api/custody/callback`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ timestamp, nonce, sign, body }).toString(),
  }).then((response) => response.text());
  if (reply !== 'success') throw new Error(`the deposit callback was answered ${reply}`);
}

/** The whole scenario: the folder, the server (market maker off, sandbox payouts) and the waiting requests. */
/** `env`: extra server settings of a scenario (the seconds contracts' one funds the reserve). */
export async function startAdminScenario(
  dataDir: string,
  env: Record<string, string> = {},
): Promise<AdminScenario> {
  const { applicant, withdrawer, seller, buyer } = await seedFolder(dataDir);
  const server = await startServer(dataDir, {
    MARKET_MAKER: 'off',
    CUSTODY_API_KEY: CUSTODY_KEY,
    CUSTODY_API_URL: '',
    DEPOSIT_XPUBS: '',
    INVITE_CODE_REQUIRED: 'false',
    ...env,
  });
  try {
    const photos: string[] = [];
    for (const colour of [
      [47, 107, 255],
      [14, 160, 110],
      [200, 120, 40],
    ] as const) {
      photos.push(await upload(server.baseURL, applicant.token, photo([...colour])));
    }
    await api(server.baseURL, '/user/real_name', applicant.token, {
      name: 'Zhang Wei',
      card_id: '110101199003074518',
      front_pic: photos[0],
      reverse_pic: photos[1],
      hand_pic: photos[2],
    });
    await deposit(server.baseURL, withdrawer, USDT_TRC20, '500000000');
    await deposit(server.baseURL, seller, BITCOIN, '100000000');
    await deposit(server.baseURL, buyer, USDT_TRC20, '10000000000');
    await api(server.baseURL, '/wallet/out', withdrawer.token, {
      currency: USDT,
      number: '120',
      address: TRON_ADDRESS,
      type: 0,
      code: WITHDRAW_CODE,
    });
    const withdrawals = await api<{ data: { id: number }[] }>(
      server.baseURL,
      '/wallet/out_list',
      withdrawer.token,
      { currency: USDT },
    );
    const submissionId = 1;
    const withdrawalId = withdrawals.data[0]?.id;
    if (withdrawalId === undefined) throw new Error('the withdrawal was not recorded');
    return { server, applicant, withdrawer, seller, buyer, submissionId, withdrawalId };
  } catch (error) {
    await server.stop();
    throw error;
  }
}
