// The withdrawal address book (spec 02 section 2.11): per user and currency, addresses with optional notes.
// An address is checked like a withdrawal address when it is added; its chain is the one whose format it
// has among the currency's chains (USDT: a TRON address is TRC20, a 0x address ERC20).
import type { AddressBookEntry as BookEntry } from '@fairex/shared/api/wallet.ts';
import { lockCounted } from '../store/counted-locks.ts';
import type { Store } from '../store/index.ts';
import type { WalletCatalog, WalletCurrency } from './catalog.ts';
import { checkAddress } from './chains/addresses.ts';
import { refuse } from './engine-calls.ts';

/** Enough for any real use, and a bound on what one account can store. */
export const MAX_ADDRESSES_PER_CURRENCY = 20;

export type { BookEntry };

export class AddressBook {
  private readonly store: Store;
  private readonly catalog: WalletCatalog;

  constructor(store: Store, catalog: WalletCatalog) {
    this.store = store;
    this.catalog = catalog;
  }

  private async currency(currencyId: number): Promise<WalletCurrency> {
    const currency = await this.catalog.currency(currencyId);
    if (!currency || !currency.isEnabled) refuse('wallet.currency_unknown');
    if (currency.chains.length === 0) refuse('wallet.chain_unavailable');
    return currency;
  }

  async list(userId: number, currencyId: number): Promise<BookEntry[]> {
    const currency = await this.currency(currencyId);
    const { rows } = await this.store.query<{
      id: number;
      chain_type: number;
      address: string;
      notes: string;
    }>(
      `select id, chain_type, address, notes from withdraw_addresses
        where user_id = $1 and currency_id = $2 order by id`,
      [userId, currencyId],
    );
    return rows.map((row) => ({
      id: row.id,
      currency: currency.id,
      currency_name: currency.code,
      chain_type: row.chain_type,
      chain: currency.chains.find((chain) => chain.chainType === row.chain_type)?.code ?? '',
      address: row.address,
      notes: row.notes,
    }));
  }

  /** Adds an address; `chainType`, when given, must be the chain the address belongs to. */
  async add(input: {
    userId: number;
    currencyId: number;
    address: string;
    notes: string;
    chainType?: number;
    /** The second factor, checked once the address itself is known to be good (wallets/second-factor.ts). */
    verify?: () => Promise<void>;
  }): Promise<BookEntry> {
    const currency = await this.currency(input.currencyId);
    let match: { chainType: number; code: string; address: string } | undefined;
    let checksumChain: string | undefined;
    for (const chain of currency.chains) {
      const check = checkAddress(chain.network, input.address);
      if (check.ok) {
        if (match === undefined || chain.chainType === input.chainType) {
          match = { chainType: chain.chainType, code: chain.code, address: check.address };
        }
      } else if (check.problem === 'checksum') {
        checksumChain ??= chain.code;
      }
    }
    const wanted = currency.chains.find((chain) => chain.chainType === input.chainType);
    if (match === undefined) {
      if (checksumChain !== undefined) refuse('wallet.address_checksum', { chain: checksumChain });
      refuse('wallet.address_invalid', {
        chain: wanted?.code ?? currency.chains.map((chain) => chain.code).join('/'),
      });
    }
    if (input.chainType !== undefined && match.chainType !== input.chainType) {
      refuse('wallet.address_wrong_chain', {
        chain: wanted?.code ?? String(input.chainType),
        other: match.code,
      });
    }
    const entry = match;
    if (input.verify !== undefined) await input.verify();
    return this.store.transaction(async (tx) => {
      // Counted and inserted in one step: parallel additions wait here and count each other.
      await lockCounted(tx, [['withdraw_addresses', `${input.userId}:${currency.id}`]]);
      const count = await tx.query<{ count: string | number }>(
        'select count(*) as count from withdraw_addresses where user_id = $1 and currency_id = $2',
        [input.userId, currency.id],
      );
      if (Number(count.rows[0]?.count ?? 0) >= MAX_ADDRESSES_PER_CURRENCY) {
        refuse('wallet.address_book_full', { max: MAX_ADDRESSES_PER_CURRENCY });
      }
      const { rows } = await tx.query<{ id: number }>(
        `insert into withdraw_addresses (user_id, currency_id, chain_type, address, notes)
         values ($1, $2, $3, $4, $5)
         on conflict (user_id, currency_id, chain_type, address) do nothing returning id`,
        [input.userId, currency.id, entry.chainType, entry.address, input.notes],
      );
      const id = rows[0]?.id;
      if (id === undefined) refuse('wallet.address_exists');
      return {
        id,
        currency: currency.id,
        currency_name: currency.code,
        chain_type: entry.chainType,
        chain: entry.code,
        address: entry.address,
        notes: input.notes,
      };
    });
  }

  /** Deletes one of the user's own addresses; another user's id is as unknown as a missing one. */
  async remove(userId: number, addressId: number): Promise<void> {
    const { rowCount } = await this.store.query(
      'delete from withdraw_addresses where id = $1 and user_id = $2',
      [addressId, userId],
    );
    if (rowCount !== 1) refuse('wallet.address_not_found');
  }
}
