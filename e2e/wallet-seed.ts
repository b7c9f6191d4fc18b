// Test-only preparation of a data folder for the wallet end-to-end flow, run before that flow's server
// starts on it: the store is migrated and given the demo catalogue, and one user (real-name approved) and
// one administrator are written with live sessions. The user's money arrives later the way real money does,
// through signed custody callbacks the test sends. Nothing here is reachable from a running server.
import { randomBytes } from 'node:crypto';
import { createAdmin } from '../packages/server/src/admin/admins.ts';
import { AdminAuthenticator } from '../packages/server/src/admin/sessions.ts';
import { createSession } from '../packages/server/src/auth/sessions.ts';
import { seedDemoData } from '../packages/server/src/seed/index.ts';
import { openStore } from '../packages/server/src/store/index.ts';
import { custodySign } from '../packages/server/src/wallets/custody/protocol.ts';
import { startServer } from './support/server-process.ts';

export const E2E_CUSTODY_KEY = 'e2e-custody-key-7c1f4a';

export interface WalletSeed {
  /** The account is also the user's e-mail, where withdrawal codes go. */
  user: { id: number; account: string; token: string };
  /** A second user whose real name is not verified (review_status 0). */
  unverified: { id: number; account: string; token: string };
  adminToken: string;
}

export async function seedWalletFolder(dataDir: string): Promise<WalletSeed> {
  const store = await openStore({ dataDir });
  try {
    await seedDemoData(store);
    const suffix = randomBytes(4).toString('hex');
    const account = `holder-${suffix}@example.com`;
    const { rows } = await store.query<{ id: number }>(
      `insert into users (account, email, password_hash, extension_code, review_status)
       values ($1, $1, 'not-a-real-hash', $2, 2) returning id`,
      [account, `W2E${suffix}`],
    );
    const id = rows[0]?.id;
    if (id === undefined) throw new Error('the user insert returned nothing');
    const { token } = await createSession(store, { userId: id, ttlMs: 6 * 3_600_000 });
    const unverifiedAccount = `newcomer-${suffix}@example.com`;
    const { rows: newcomer } = await store.query<{ id: number }>(
      `insert into users (account, email, password_hash, extension_code, review_status)
       values ($1, $1, 'not-a-real-hash', $2, 0) returning id`,
      [unverifiedAccount, `N2E${suffix}`],
    );
    const unverifiedId = newcomer[0]?.id;
    if (unverifiedId === undefined) throw new Error('the user insert returned nothing');
    const unverified = {
      id: unverifiedId,
      account: unverifiedAccount,
      token: (await createSession(store, { userId: unverifiedId, ttlMs: 6 * 3_600_000 })).token,
    };
    const adminId = await createAdmin(store, {
      username: 'treasurer',
      password: `treasurer-${suffix}-password`,
      role: 'admin',
      createdBy: null,
    });
    const admin = await new AdminAuthenticator(store).create(adminId, '127.0.0.1');
    return { user: { id, account, token }, unverified, adminToken: admin.token };
  } finally {
    await store.close();
  }
}

export interface WalletServer {
  baseURL: string;
  stop(): Promise<void>;
}

/**
 * The real server on the prepared folder, with a custody key (so the test can sign callbacks), the market
 * maker off (index prices still come from the simulated source) and its mail sent to `smtpUrl` (the test's
 * mailbox, where the withdrawal codes arrive).
 */
export async function startWalletServer(dataDir: string, smtpUrl: string): Promise<WalletServer> {
  const server = await startServer(dataDir, {
    MARKET_MAKER: 'off',
    CUSTODY_API_KEY: E2E_CUSTODY_KEY,
    CUSTODY_API_URL: '',
    DEPOSIT_XPUBS: '',
    SMTP_URL: smtpUrl,
    MAIL_FROM: 'Fairex <no-reply@fairex.test>',
  });
  return { baseURL: server.baseURL, stop: () => server.stop() };
}

/** Sends a custody callback signed as the provider signs it; returns the server's text reply. */
export async function sendCallback(baseURL: string, trade: Record<string, unknown>): Promise<string> {
  const body = JSON.stringify(trade);
  const timestamp = String(Date.now());
  const nonce = randomBytes(4).toString('hex');
  const sign = custodySign(body, E2E_CUSTODY_KEY, nonce, timestamp);
  const response = await fetch(`${baseURL}/api/custody/callback`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ timestamp, nonce, sign, body }).toString(),
  });
  return response.text();
}
