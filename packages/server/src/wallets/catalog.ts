// What the wallet services read about currencies and their chains, from the SQL catalogue. The catalogue
// changes only when an operator edits it, so a read is kept for a few seconds.
//
// At start the chains of the demo currencies (and any currency whose `chains` names a known token or coin)
// are written into wallet_chains when missing, with the custody provider's coin numbers: the operator can
// then change confirmations, disable a chain or add a token there.
import type { Queryable } from '../store/index.ts';
import type { Network } from './chains/addresses.ts';
import { isNetwork } from './chains/addresses.ts';

export interface ChainInfo {
  /** The index the web client sends (USDT: TRC20 0, ERC20 1). */
  chainType: number;
  code: string;
  network: Network;
  mainCoinType: number;
  coinType: string;
  chainDecimals: number;
  confirmations: number;
  isEnabled: boolean;
}

export interface WalletCurrency {
  id: number;
  code: string;
  name: string;
  scale: number;
  udunId: number;
  withdrawMin: bigint;
  withdrawFee: bigint;
  displayOrder: number;
  isEnabled: boolean;
  /** Enabled chains, by chain type. Empty: deposits and withdrawals are not offered. */
  chains: ChainInfo[];
}

interface CurrencyRow {
  id: number;
  code: string;
  name: string;
  scale: number;
  udun_id: number;
  withdraw_min: string | bigint;
  withdraw_fee: string | bigint;
  display_order: number;
  is_enabled: boolean;
}

interface ChainRow {
  currency_id: number;
  chain_type: number;
  code: string;
  network: string;
  main_coin_type: number;
  coin_type: string;
  chain_decimals: number;
  confirmations: number;
  is_enabled: boolean;
}

/** Token contracts are compared without regard to case on Ethereum, where case is only a checksum. */
export function normalizeCoinType(coinType: string): string {
  const trimmed = coinType.trim();
  return /^0x[0-9a-fA-F]{40}$/.test(trimmed) ? trimmed.toLowerCase() : trimmed;
}

const CACHE_MS = 5_000;

export class WalletCatalog {
  private readonly db: Queryable;
  private cached: { atMs: number; currencies: Map<number, WalletCurrency> } | undefined;

  constructor(db: Queryable) {
    this.db = db;
  }

  invalidate(): void {
    this.cached = undefined;
  }

  async currencies(): Promise<WalletCurrency[]> {
    return [...(await this.load()).values()];
  }

  async currency(id: number): Promise<WalletCurrency | undefined> {
    return (await this.load()).get(id);
  }

  async currencyByCode(code: string): Promise<WalletCurrency | undefined> {
    for (const currency of (await this.load()).values()) if (currency.code === code) return currency;
    return undefined;
  }

  /** The chain the custody provider means by (mainCoinType, coinType), with its currency. */
  async chainByCoin(
    mainCoinType: string,
    coinType: string,
  ): Promise<{ currency: WalletCurrency; chain: ChainInfo } | undefined> {
    const main = Number(mainCoinType);
    const coin = normalizeCoinType(coinType);
    for (const currency of (await this.load()).values()) {
      for (const chain of currency.chains) {
        if (chain.mainCoinType === main && chain.coinType === coin) return { currency, chain };
      }
    }
    return undefined;
  }

  private async load(): Promise<Map<number, WalletCurrency>> {
    const now = Date.now();
    if (this.cached !== undefined && now - this.cached.atMs < CACHE_MS) return this.cached.currencies;
    const [currencyRows, chainRows] = await Promise.all([
      this.db.query<CurrencyRow>(
        `select id, code, name, scale, udun_id, withdraw_min, withdraw_fee, display_order, is_enabled
           from currencies order by display_order, id`,
      ),
      this.db.query<ChainRow>(
        `select currency_id, chain_type, code, network, main_coin_type, coin_type, chain_decimals, confirmations,
                is_enabled
           from wallet_chains order by currency_id, chain_type`,
      ),
    ]);
    const currencies = new Map<number, WalletCurrency>();
    for (const row of currencyRows.rows) {
      currencies.set(row.id, {
        id: row.id,
        code: row.code,
        name: row.name,
        scale: row.scale,
        udunId: row.udun_id,
        withdrawMin: BigInt(row.withdraw_min),
        withdrawFee: BigInt(row.withdraw_fee),
        displayOrder: row.display_order,
        isEnabled: row.is_enabled,
        chains: [],
      });
    }
    for (const row of chainRows.rows) {
      const currency = currencies.get(row.currency_id);
      if (!currency || !row.is_enabled || !isNetwork(row.network)) continue;
      // udun_id -1 turns deposits and withdrawals off for the whole currency (spec 02 section 2.2).
      if (currency.udunId < 0) continue;
      currency.chains.push({
        chainType: row.chain_type,
        code: row.code,
        network: row.network,
        mainCoinType: row.main_coin_type,
        coinType: normalizeCoinType(row.coin_type),
        chainDecimals: row.chain_decimals,
        confirmations: row.confirmations,
        isEnabled: row.is_enabled,
      });
    }
    this.cached = { atMs: now, currencies };
    return currencies;
  }
}

interface KnownChain {
  network: Network;
  mainCoinType: number;
  coinType: string;
  chainDecimals: number;
  confirmations: number;
}

/** Native coins of each network (SLIP-44 numbers) and the confirmations the provider is asked to wait for. */
const NATIVE: Record<Network, KnownChain> = {
  bitcoin: { network: 'bitcoin', mainCoinType: 0, coinType: '0', chainDecimals: 8, confirmations: 1 },
  litecoin: { network: 'litecoin', mainCoinType: 2, coinType: '2', chainDecimals: 8, confirmations: 6 },
  dogecoin: { network: 'dogecoin', mainCoinType: 3, coinType: '3', chainDecimals: 8, confirmations: 6 },
  ethereum: { network: 'ethereum', mainCoinType: 60, coinType: '60', chainDecimals: 18, confirmations: 12 },
  tron: { network: 'tron', mainCoinType: 195, coinType: '195', chainDecimals: 6, confirmations: 19 },
  xrpl: { network: 'xrpl', mainCoinType: 144, coinType: '144', chainDecimals: 6, confirmations: 1 },
};

/** Tokens by currency code and network: their contracts and on-chain decimals. */
const TOKENS: Record<string, Partial<Record<Network, { contract: string; decimals: number }>>> = {
  USDT: {
    tron: { contract: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', decimals: 6 },
    ethereum: { contract: '0xdac17f958d2ee523a2206206994597c13d831ec7', decimals: 6 },
  },
  LINK: { ethereum: { contract: '0x514910771af9ca656af840dff83e8264ecf986ca', decimals: 18 } },
};

/** The native coin of each network, by currency code. */
const NATIVE_CODES: Record<string, Network> = {
  BTC: 'bitcoin',
  LTC: 'litecoin',
  DOGE: 'dogecoin',
  ETH: 'ethereum',
  TRX: 'tron',
  XRP: 'xrpl',
};

/** The wallet_chains row a currency's declared chain gets by default, when the coin or token is known. */
export function defaultChain(code: string, network: Network): KnownChain | undefined {
  if (NATIVE_CODES[code] === network) return NATIVE[network];
  const token = TOKENS[code]?.[network];
  if (token === undefined) return undefined;
  return { ...NATIVE[network], coinType: token.contract, chainDecimals: token.decimals };
}

/**
 * Writes the default chain rows for every currency whose `chains` declares a chain on a known network with
 * a known coin or token, leaving rows that exist untouched. Returns how many rows were added.
 */
export async function seedWalletChains(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ id: number; code: string; chains: unknown }>(
    'select id, code, chains from currencies order by id',
  );
  let added = 0;
  for (const currency of rows) {
    const chains = Array.isArray(currency.chains) ? (currency.chains as unknown[]) : [];
    for (const entry of chains) {
      if (typeof entry !== 'object' || entry === null) continue;
      const { type, code, network } = entry as { type?: unknown; code?: unknown; network?: unknown };
      if (typeof type !== 'number' || typeof code !== 'string' || !isNetwork(network)) continue;
      const known = defaultChain(currency.code, network);
      if (known === undefined) continue;
      const result = await db.query(
        `insert into wallet_chains (currency_id, chain_type, code, network, main_coin_type, coin_type,
                                    chain_decimals, confirmations)
         values ($1, $2, $3, $4, $5, $6, $7, $8)
         on conflict do nothing`,
        [
          currency.id,
          type,
          code,
          network,
          known.mainCoinType,
          known.coinType,
          known.chainDecimals,
          known.confirmations,
        ],
      );
      added += result.rowCount;
    }
  }
  return added;
}
