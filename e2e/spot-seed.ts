// Test-only preparation for the spot end-to-end flow. Before that flow's server starts on a fresh data
// folder, the store is migrated and given the demo catalogue, and the users are written with live sessions.
// Their money then arrives the way real money does: the test asks the running server for each user's
// deposit address and sends the custody provider's signed callback for a confirmed deposit to it, with the
// custody key the test started the server with. Nothing here is reachable from a running server.
import { randomBytes } from 'node:crypto';
import { createSession } from '../packages/server/src/auth/sessions.ts';
import { seedDemoData } from '../packages/server/src/seed/index.ts';
import { openStore } from '../packages/server/src/store/index.ts';
import { custodySign } from '../packages/server/src/wallets/custody/protocol.ts';
import { startServer } from './support/server-process.ts';

/** The custody key of the test's own server; it signs nothing anywhere else. */
const SPOT_E2E_CUSTODY_KEY = `spot-e2e-${randomBytes(8).toString('hex')}`;

/** A server's settings for the test's own custody key, so the test can sign deposit callbacks. */
export const SPOT_E2E_CUSTODY_ENV = {
  CUSTODY_API_KEY: SPOT_E2E_CUSTODY_KEY,
  CUSTODY_API_URL: '',
  DEPOSIT_XPUBS: '',
};

export interface SeededUser {
  id: number;
  account: string;
  token: string;
}

/** How long the seeded users' sessions last unless a flow asks for longer (one that moves the clock on). */
export const SEEDED_SESSION_HOURS = 6;

/** Writes `count` users with sessions into a fresh folder, after its migrations and demo catalogue. */
export async function seedSpotUsers(
  dataDir: string,
  count: number,
  sessionHours: number = SEEDED_SESSION_HOURS,
): Promise<SeededUser[]> {
  const store = await openStore({ dataDir });
  try {
    await seedDemoData(store);
    const seeded: SeededUser[] = [];
    for (let index = 0; index < count; index++) {
      const suffix = randomBytes(4).toString('hex');
      const account = `trader-${suffix}@example.com`;
      const { rows } = await store.query<{ id: number }>(
        `insert into users (account, email, password_hash, extension_code)
         values ($1, $1, 'not-a-real-hash', $2) returning id`,
        [account, `E2E${suffix}`],
      );
      const id = rows[0]?.id;
      if (id === undefined) throw new Error('the user insert returned nothing');
      const { token } = await createSession(store, { userId: id, ttlMs: sessionHours * 3_600_000 });
      seeded.push({ id, account, token });
    }
    return seeded;
  } finally {
    await store.close();
  }
}

/** A confirmed chain deposit, as the custody provider reports it. */
export interface ChainDeposit {
  currencyId: number;
  /** The chain's index for the currency (USDT: 0 TRC20). */
  chainType: number;
  mainCoinType: string;
  coinType: string;
  /** Integer in the chain's smallest unit, and that unit's decimals. */
  amount: string;
  decimals: number;
}

export const BTC_DEPOSIT = { currencyId: 1, chainType: 0, mainCoinType: '0', coinType: '0', decimals: 8 };
export const USDT_TRC20_DEPOSIT = {
  currencyId: 3,
  chainType: 0,
  mainCoinType: '195',
  coinType: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
  decimals: 6,
};

/**
 * Funds a user through the deposit path: the user's deposit address from POST /api/wallet/get_in_address,
 * then the provider's signed callback for a confirmed deposit to it. Resolves when the server answered
 * the callback with `success`.
 */
export async function depositThroughCustody(
  baseURL: string,
  user: SeededUser,
  deposit: ChainDeposit,
): Promise<void> {
  const addressReply = await fetch(`${baseURL}/api/wallet/get_in_address`, {
    method: 'POST',
    headers: { authorization: user.token, 'content-type': 'application/json' },
    body: JSON.stringify({ currency: deposit.currencyId, type: deposit.chainType }),
  }).then((response) => response.json() as Promise<{ type: string; message: { address?: string } }>);
  const address = addressReply.message.address;
  if (addressReply.type !== 'ok' || typeof address !== 'string') {
    throw new Error(`no deposit address: ${JSON.stringify(addressReply)}`);
  }
  // A chain transaction id: 64 hex digits, which every supported chain accepts.
  const txId = randomBytes(32).toString('hex');
  const body = JSON.stringify({
    address,
    amount: deposit.amount,
    decimals: String(deposit.decimals),
    fee: '0',
    mainCoinType: deposit.mainCoinType,
    coinType: deposit.coinType,
    txId,
    tradeId: `spot-e2e-${txId.slice(0, 16)}`,
    tradeType: 1,
    status: 3,
    businessId: '',
    memo: '',
  });
  const timestamp = String(Date.now());
  const nonce = randomBytes(4).toString('hex');
  const sign = custodySign(body, SPOT_E2E_CUSTODY_KEY, nonce, timestamp);
  const reply = await fetch(`${baseURL}/api/custody/callback`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ timestamp, nonce, sign, body }).toString(),
  }).then((response) => response.text());
  if (reply !== 'success') throw new Error(`the deposit callback was answered ${reply}`);
}

export interface SpotServer {
  baseURL: string;
  stop(): Promise<void>;
}

/**
 * Starts the real server on a prepared folder with the market maker off, so the book holds exactly what
 * the test's users place, and with the test's custody key, so the test can sign deposit callbacks.
 */
export async function startSpotServer(dataDir: string): Promise<SpotServer> {
  const server = await startServer(dataDir, { MARKET_MAKER: 'off', ...SPOT_E2E_CUSTODY_ENV });
  return { baseURL: server.baseURL, stop: () => server.stop() };
}
