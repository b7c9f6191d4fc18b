// The flash desk: the house's change wallet, from which every flash exchange is paid (the engine refuses an
// exchange the house cannot pay). An operator funds it in the back office (house funds); with demo data
// (DEMO=on) the first start funds it with house capital, so that a fresh exchange fills a flash exchange at
// once: DEMO_FLASH_DESK_VALUE of the legal currency, and of each coin that value at the coin's index price,
// each a journaled `systemFund` into the house with its label. A coin whose market has no index price yet is
// funded when its first index price is recorded. The back office lists the desk's balances and fundings.
import type { Command, Engine, Outcome } from '@fairex/engine';
import { ReasonCode, ownerKeyOf } from '@fairex/engine';
import { formatDecimal, pow10 } from '@fairex/shared';
import type { FlashDeskReply } from '@fairex/shared/api/backoffice.ts';
import type { Queryable } from '../store/index.ts';
import { houseMovements } from '../store/house-movements.ts';
import type { WalletCurrency } from './catalog.ts';
import type { FlashService } from './flash.ts';
import type { PriceBook } from './prices.ts';

/** What the demo puts on the flash desk per currency, in whole units of the legal currency (USDT). */
export const DEMO_FLASH_DESK_VALUE = 100_000n;
/** The label of that funding in the journal, the account log and the back office. */
export const FLASH_DESK_MEMO = 'demo: house capital for the flash desk';
/** The back office shows this many of the desk's latest fundings. */
export const FLASH_DESK_FUNDINGS_SHOWN = 20;

/** What the demo funds `currency` with: the value in the legal currency, or that value at the coin's price. */
export function demoDeskAmount(
  currency: WalletCurrency,
  legal: WalletCurrency,
  prices: Pick<PriceBook, 'priceOf'>,
): bigint | undefined {
  if (currency.id === legal.id) return DEMO_FLASH_DESK_VALUE * pow10(legal.scale);
  const price = prices.priceOf(currency.id, legal.id);
  if (price === undefined || price.value <= 0n) return undefined;
  // value / price, at the coin's scale, rounded down.
  return (DEMO_FLASH_DESK_VALUE * pow10(price.scale) * pow10(currency.scale)) / price.value;
}

export interface FlashDeskRunner {
  readonly engine: Engine;
  submit(command: Command, options?: { idempotencyKey?: string }): Promise<Outcome>;
  onCommitted(listener: () => void): () => void;
}

/**
 * Funds the desk for demo data: once per currency, whatever restarts happen (the account log says which
 * currencies were funded, and each funding carries an idempotency key). Returns a stop function.
 */
export async function startDemoFlashDesk(deps: {
  runner: FlashDeskRunner;
  db: Queryable;
  flash: FlashService;
  prices: Pick<PriceBook, 'priceOf'>;
  /** Resolves once the account log holds every committed command. */
  projected: () => Promise<unknown>;
  log: { warn(object: object, message: string): void; info(object: object, message: string): void };
}): Promise<() => void> {
  const { runner, db, flash, prices, log } = deps;
  const currencies = await flash.deskCurrencies();
  const legal = await flash.legal();
  if (legal === undefined || currencies.length === 0) return () => {};
  await deps.projected();
  const { rows } = await db.query<{ currency_id: number }>(
    `select distinct currency_id from account_log where owner_key = $1 and reason = $2 and memo = $3`,
    [ownerKeyOf('house'), ReasonCode.systemFund, FLASH_DESK_MEMO],
  );
  const funded = new Set(rows.map((row) => row.currency_id));
  let running = false;
  let again = false;
  let stopListening: () => void = () => {};
  const fundWhatCan = async (): Promise<void> => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        for (const currency of currencies) {
          if (funded.has(currency.id)) continue;
          const amount = demoDeskAmount(currency, legal, prices);
          if (amount === undefined || amount <= 0n) continue;
          const outcome = await runner.submit(
            { type: 'systemFund', owner: 'house', currencyId: currency.id, amount, memo: FLASH_DESK_MEMO },
            { idempotencyKey: `flash-desk:${currency.id}` },
          );
          if (outcome.code !== 0) {
            log.warn({ currency: currency.code, code: outcome.code }, 'flash desk funding refused');
            continue;
          }
          funded.add(currency.id);
          log.info(
            { currency: currency.code, amount: formatDecimal(amount, currency.scale) },
            'flash desk funded (demo)',
          );
        }
      } while (again);
    } finally {
      running = false;
    }
    if (currencies.every((currency) => funded.has(currency.id))) stopListening();
  };
  const attempt = () => {
    fundWhatCan().catch((error: unknown) => log.warn({ err: error }, 'flash desk funding failed'));
  };
  if (currencies.some((currency) => !funded.has(currency.id))) {
    // A coin without an index price is funded once its first price is recorded.
    stopListening = runner.onCommitted(() => {
      if (currencies.some((currency) => !funded.has(currency.id) && demoDeskAmount(currency, legal, prices)))
        attempt();
    });
    await fundWhatCan();
  }
  return () => stopListening();
}

/**
 * The desk's balances (each flash currency) and the latest movements of house capital through it, for the
 * back office: fundings from outside (`systemFund`), moves to the house's other wallets (the seconds
 * reserve) and labelled transfers to users (the demo merchant), signed; flash exchanges are not listed.
 */
export async function flashDeskView(
  db: Queryable,
  engine: Engine,
  currencies: readonly WalletCurrency[],
): Promise<FlashDeskReply> {
  const list = currencies.map((currency) => ({
    currency_id: currency.id,
    code: currency.code,
    available: formatDecimal(engine.ledger.balance('house', 'change', currency.id).available, currency.scale),
  }));
  const fundings = await houseMovements(db, engine, {
    wallet: 'change',
    reasons: [ReasonCode.systemFund, ReasonCode.walletTransfer, ReasonCode.houseTransfer],
    currencyIds: currencies.map((currency) => currency.id),
    limit: FLASH_DESK_FUNDINGS_SHOWN,
  });
  return { list, fundings };
}
