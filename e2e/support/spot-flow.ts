// What the spot flows of a trader share: a server of the flow's own (market maker off, so the book holds
// exactly what the flow's users place) with users funded through the custody deposit path, one browser, a
// page opened as a signed-in user, and a limit order placed through the API.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  SPOT_E2E_CUSTODY_ENV,
  depositThroughCustody,
  seedSpotUsers,
  type ChainDeposit,
  type SeededUser,
} from '../spot-seed.ts';
import { launchBrowser, newContext, type ContextOptions } from './browser.ts';
import { ServerClock } from './clock.ts';
import { FairexPage } from './fairex-page.ts';
import { startServer, type ServerProcess } from './server-process.ts';

/** The demo catalogue's BTC/USDT: currency ids. */
export const BTC = 1;
export const USDT = 3;

export const SPOT_SERVER_ENV = { MARKET_MAKER: 'off', ...SPOT_E2E_CUSTODY_ENV };

export interface SignedInPage {
  context: BrowserContext;
  fairex: FairexPage;
  page: Page;
}

export interface SpotFlow {
  dataDir: string;
  /** The running server; a flow that stops it starts it again with `restart`. */
  server: ServerProcess;
  browser: Browser;
  users: SeededUser[];
  /** The server's clock, when the flow asked for one it can move forward. */
  clock: ServerClock | undefined;
  /** Starts the server again on the same folder and port after `server.stop({ keepData: true })`. */
  restart(): Promise<ServerProcess>;
  close(): Promise<void>;
}

export interface SpotFlowOptions {
  /** A server clock the test can move forward (its pages follow it); the sessions then last 30 days. */
  clock?: boolean;
  /** More server settings (a steered price feed, for example). */
  env?: Record<string, string>;
}

/**
 * Seeds one user per entry of `deposits` into a fresh folder, starts the server, funds each user with their
 * deposit through a signed custody callback, and launches the browser.
 */
export async function startSpotFlow(
  name: string,
  deposits: ChainDeposit[],
  options: SpotFlowOptions = {},
): Promise<SpotFlow> {
  const dataDir = await mkdtemp(join(tmpdir(), `fairex-${name}-e2e-`));
  const clock = options.clock === true ? new ServerClock(dataDir) : undefined;
  const users = await seedSpotUsers(dataDir, deposits.length, clock === undefined ? undefined : 30 * 24);
  const env = { ...SPOT_SERVER_ENV, ...options.env, ...clock?.env };
  let server = await startServer(dataDir, env);
  for (const [index, deposit] of deposits.entries()) {
    await depositThroughCustody(server.baseURL, users[index] as SeededUser, deposit);
  }
  const browser = await launchBrowser();
  const flow: SpotFlow = {
    dataDir,
    server,
    browser,
    users,
    clock,
    async restart() {
      const port = Number(new URL(server.baseURL).port);
      server = await startServer(dataDir, env, { port });
      flow.server = server;
      return server;
    },
    async close() {
      await browser.close();
      await flow.server.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  return flow;
}

/**
 * A page opened at `path` with `user` signed in as the login dialog leaves it (the token, the account, the
 * user id) and any other preferences set in local storage before any script runs.
 */
export async function openSignedIn(
  flow: SpotFlow,
  user: SeededUser,
  path: string,
  settings: Record<string, string> = {},
  options: ContextOptions = {},
): Promise<SignedInPage> {
  const context = await newContext(flow.browser, { width: 1440, height: 900, ...options });
  if (flow.clock !== undefined) {
    // The page's clock runs as far ahead as the server's, from its first script on.
    await context.addInitScript(
      (offset) => localStorage.setItem('e2e_clock_offset', String(offset)),
      flow.clock.offsetMs,
    );
    await ServerClock.follow(context);
  }
  await context.addInitScript(
    ({ token, account, id, extra }) => {
      localStorage.setItem('token', token);
      localStorage.setItem('accountNum', account);
      localStorage.setItem('user_id', String(id));
      for (const [key, value] of Object.entries(extra)) localStorage.setItem(key, value);
    },
    { token: user.token, account: user.account, id: user.id, extra: settings },
  );
  const fairex = await FairexPage.open(context, flow.server.baseURL, path);
  return { context, fairex, page: fairex.page };
}

/** A BTC/USDT limit order through the API (`in` buys, `out` sells); it must be accepted. */
export async function placeLimitOrder(
  flow: SpotFlow,
  user: SeededUser,
  side: 'in' | 'out',
  price: string,
  num: string,
): Promise<void> {
  const response = await fetch(`${flow.server.baseURL}/api/transaction/${side}`, {
    method: 'POST',
    headers: { authorization: user.token, 'content-type': 'application/json' },
    body: JSON.stringify({ legal_id: USDT, currency_id: BTC, price, num, mode: 2 }),
  });
  expect(await response.json()).toMatchObject({ type: 'ok' });
}
