// A live market with a user in it, for the flows that show public prices. The market maker only quotes and
// the public figures (last price, volume, the tape, candles) count only trades with a user, so a flow that
// wants prices to appear and move needs a user who trades: this starts a server of the flow's own with the
// market maker on, funds one user through the custody deposit path, and has that user take the market
// maker's best quote on every USDT pair in turn, buying and then selling, until the flow stops it.
import { newDataDir, type ServerProcess, startServer } from './server-process.ts';
import {
  depositThroughCustody,
  SPOT_E2E_CUSTODY_ENV,
  seedSpotUsers,
  USDT_TRC20_DEPOSIT,
  type SeededUser,
} from '../spot-seed.ts';

/** The demo data's USDT markets: currency id of the base, and a quantity of a few lots. */
const USDT_ID = 3;
const PAIRS = [
  { currencyId: 1, num: '0.001' }, // BTC
  { currencyId: 2, num: '0.01' }, // ETH
  { currencyId: 4, num: '10' }, // XRP
  { currencyId: 5, num: '100' }, // DOGE
  { currencyId: 6, num: '1' }, // LINK
  { currencyId: 7, num: '0.1' }, // LTC
  { currencyId: 8, num: '100' }, // TRX
];
const TRADE_INTERVAL_MS = 400;

export interface TradingServer {
  baseURL: string;
  /** The user who trades, with a session a flow can sign in with. */
  user: SeededUser;
  stop(): Promise<void>;
}

async function marketOrder(
  baseURL: string,
  user: SeededUser,
  side: 'in' | 'out',
  pair: (typeof PAIRS)[number],
) {
  // A refusal (the book has no quote yet at start) is fine: the next round tries again.
  await fetch(`${baseURL}/api/transaction/${side}`, {
    method: 'POST',
    headers: { authorization: user.token, 'content-type': 'application/json' },
    body: JSON.stringify({ legal_id: USDT_ID, currency_id: pair.currencyId, num: pair.num, mode: 1 }),
  }).catch(() => undefined);
}

/** Starts the server and the trading user; resolves once the user is funded. */
export async function startUserTradingServer(): Promise<TradingServer> {
  const dataDir = await newDataDir();
  const [user] = await seedSpotUsers(dataDir, 1);
  if (user === undefined) throw new Error('no user was seeded');
  // The catalogue's pairs only: the token sale's demo pair (IEPN/USDT, which has no outside price and trades
  // only between users) belongs to the products tests, so this server starts without the demo data (DEMO=off).
  const server: ServerProcess = await startServer(dataDir, { ...SPOT_E2E_CUSTODY_ENV, DEMO: 'off' });
  await depositThroughCustody(server.baseURL, user, { ...USDT_TRC20_DEPOSIT, amount: '10000000000000' });

  let stopped = false;
  const trading = (async () => {
    for (let round = 0; !stopped; round++) {
      // Buy on every pair, then sell the same quantities back: the last price moves between the two sides
      // of the book as the market maker follows the index.
      const side = round % 2 === 0 ? 'in' : 'out';
      for (const pair of PAIRS) {
        if (stopped) break;
        await marketOrder(server.baseURL, user, side, pair);
      }
      await new Promise((resolve) => setTimeout(resolve, TRADE_INTERVAL_MS));
    }
  })();

  return {
    baseURL: server.baseURL,
    user,
    stop: async () => {
      stopped = true;
      await trading;
      await server.stop();
    },
  };
}
