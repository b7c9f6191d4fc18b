// The wallet services of one app, built once from its configuration, store and engine runner by the wallets
// plugin (plugin.ts), and shared as `app.wallets` by the wallet, account, custody and administrator routes. Building them also prepares the deposit keys (configured
// or the development seed), writes missing chain rows, and, once the app is ready, finishes whatever a
// crash left half done (pending deposits, withdrawals and flash exchanges).
import type { Config } from '../config.ts';
import type { Store } from '../store/index.ts';
import { AddressBook } from './address-book.ts';
import { WalletCatalog, seedWalletChains } from './catalog.ts';
import { join } from 'node:path';
import type { DepositKeySource } from './chains/keys.ts';
import { DepositKeys, loadDevelopmentSeed, parseDepositXpubs } from './chains/keys.ts';
import { CustodyCallbacks } from './custody/callbacks.ts';
import type { PayoutAdapter } from './custody/payout.ts';
import { CustodyPayout, SandboxPayout } from './custody/payout.ts';
import { DepositService } from './deposits.ts';
import type { WalletRunner } from './engine-calls.ts';
import { FlashService, parseFlashPairs } from './flash.ts';
import { LedgerRecords } from './ledger-records.ts';
import { PriceBook } from './prices.ts';
import { TransferService } from './transfers.ts';
import type { SecondFactor } from './second-factor.ts';
import { WithdrawalService } from './withdrawals.ts';

export interface WalletServices {
  catalog: WalletCatalog;
  prices: PriceBook;
  keys: DepositKeySource;
  deposits: DepositService;
  withdrawals: WithdrawalService;
  flash: FlashService;
  transfers: TransferService;
  book: AddressBook;
  records: LedgerRecords;
  callbacks: CustodyCallbacks;
}

export interface WalletDependencies {
  config: Config;
  store: Store;
  runner: WalletRunner;
  secondFactor: SecondFactor;
  log: { warn(object: object, message: string): void; info(object: object, message: string): void };
  /** Tests pass their own payout adapter (a stand-in provider) or clock. */
  payout?: PayoutAdapter;
  clock?: () => number;
}

export async function buildWalletServices(deps: WalletDependencies): Promise<WalletServices> {
  const { config, store, runner, log } = deps;
  const keys = depositKeys(config, log);
  await seedWalletChains(store);
  const catalog = new WalletCatalog(store);
  const prices = new PriceBook(runner.engine);
  const deposits = new DepositService({ store, runner, catalog, keys });
  const withdrawals = new WithdrawalService({
    store,
    runner,
    catalog,
    payout: deps.payout ?? payoutAdapter(config),
    secondFactor: deps.secondFactor,
  });
  return {
    catalog,
    prices,
    keys,
    deposits,
    withdrawals,
    flash: new FlashService({
      store,
      runner,
      catalog,
      prices,
      pairs: parseFlashPairs(config.flashPairs),
      feePpm: BigInt(config.flashFeePpm),
      ...(deps.clock === undefined ? {} : { clock: deps.clock }),
    }),
    transfers: new TransferService(runner, catalog),
    book: new AddressBook(store, catalog),
    records: new LedgerRecords(store, catalog),
    callbacks: new CustodyCallbacks({
      store,
      catalog,
      deposits,
      withdrawals,
      apiKey: config.custodyApiKey,
      maxAgeMs: config.custodyCallbackMaxAgeSeconds * 1000,
      ...(deps.clock === undefined ? {} : { clock: deps.clock }),
    }),
  };
}

/**
 * The deposit keys: the configured ones, or the development seed, which is read (or generated, the first
 * time) when the first address is asked for. The warning is logged at every start.
 */
function depositKeys(config: Config, log: WalletDependencies['log']): DepositKeySource {
  const configured = parseDepositXpubs(config.depositXpubs);
  if (configured.size > 0) {
    log.info(
      { networks: [...configured.keys()] },
      'deposit addresses derive from the configured extended public keys',
    );
    const keys = new DepositKeys(configured, 'configured');
    return { source: 'configured', load: async () => keys };
  }
  log.warn(
    { folder: join(config.dataDir, 'wallet') },
    'DEPOSIT_XPUBS is not set: deposit addresses derive from a DEVELOPMENT SEED stored in the data folder. ' +
      'Anyone who can read that file holds their keys. Do not accept real deposits; set DEPOSIT_XPUBS.',
  );
  let loading: Promise<DepositKeys> | undefined;
  return {
    source: 'development',
    load: () => {
      loading ??= loadDevelopmentSeed(config.dataDir).then(({ seed, created, path }) => {
        if (created) log.warn({ path }, 'generated a new development seed for deposit addresses');
        return DepositKeys.fromSeed(seed);
      });
      return loading;
    },
  };
}

function payoutAdapter(config: Config): PayoutAdapter {
  const { custodyApiUrl, custodyMerchantId, custodyApiKey, custodyCallbackUrl } = config;
  if (custodyApiUrl === undefined) return new SandboxPayout();
  if (custodyMerchantId === undefined || custodyApiKey === undefined || custodyCallbackUrl === undefined) {
    throw new Error(
      'CUSTODY_API_URL needs CUSTODY_MERCHANT_ID, CUSTODY_API_KEY and CUSTODY_CALLBACK_URL as well',
    );
  }
  return new CustodyPayout({
    apiUrl: custodyApiUrl,
    merchantId: custodyMerchantId,
    apiKey: custodyApiKey,
    callbackUrl: custodyCallbackUrl,
  });
}

/**
 * Finishes deposits, withdrawals and flash exchanges a crash left half done. They are looked up in the
 * account log, so when there are any, `projected` is awaited first: it resolves once the projections hold
 * every command committed before the start (after a restart the projector may still be writing those the
 * durable log gave back).
 */
export async function reconcileWallets(
  services: WalletServices,
  log: WalletDependencies['log'],
  projected: () => Promise<unknown> = async () => {},
): Promise<void> {
  const deposits = await services.deposits.reconcile(projected);
  const withdrawals = await services.withdrawals.reconcile(projected);
  const flash = await services.flash.reconcile(projected);
  if (deposits + withdrawals + flash > 0) {
    log.warn({ deposits, withdrawals, flash }, 'finished wallet operations a restart interrupted');
  }
}
