// Deposits: each user's address per network, crediting confirmed deposits exactly once, and the records.
//
// Exactly once: a deposit row is inserted first (unique per transaction id, address and coin; the id in
// its chain's canonical form, chains/tx-ids.ts, and unique in the database whatever its letter case), then
// the engine credits it with the memo and idempotency key "deposit:<id>", then the row is marked credited. A
// repeat of the same deposit finds the row: credited means done; still pending means a crash or a failed
// commit came in between, and account_log (written in the journal's own transaction) says whether the
// credit happened. So a transaction id is credited once however late it is repeated, long after the
// engine's 24-hour idempotency window.
import { randomUUID } from 'node:crypto';
import { ReasonCode } from '@fairex/engine';
import { formatDecimal, paged } from '@fairex/shared';
import type { DepositRecord, DepositSource, Paged } from '@fairex/shared';
import type { Queryable, Store } from '../store/index.ts';
import { auditWallet } from './audit.ts';
import type { WalletCatalog, WalletCurrency } from './catalog.ts';
import type { DepositKeySource } from './chains/keys.ts';
import type { WalletRunner } from './engine-calls.ts';
import { KeyedMutex, refuse } from './engine-calls.ts';
import { submitCommand } from '../engine-runner/submit.ts';

export interface DepositAddressView {
  currency: WalletCurrency;
  chainType: number;
  chainCode: string;
  network: string;
  address: string;
  confirmations: number;
  /** Offered chains of the currency, for the chain picker. */
  chains: { type: number; code: string }[];
}

export interface CreditInput {
  userId: number;
  currencyId: number;
  chainType: number | null;
  address: string;
  coinType: string;
  txId: string;
  tradeId: string | null;
  chainAmount: bigint;
  chainDecimals: number;
  amount: bigint;
  source: 'custody' | 'manual';
  adminId: number | null;
  note: string | null;
}

export type CreditResult = { outcome: 'credited' | 'duplicate'; depositId: number };

interface DepositRow {
  id: number;
  user_id: number;
  currency_id: number;
  amount: string | bigint;
  status: 'pending' | 'credited';
}

export type { DepositRecord } from '@fairex/shared';

export class DepositService {
  private readonly store: Store;
  private readonly runner: WalletRunner;
  private readonly catalog: WalletCatalog;
  private readonly keys: DepositKeySource;
  private readonly mutex = new KeyedMutex();

  constructor(deps: { store: Store; runner: WalletRunner; catalog: WalletCatalog; keys: DepositKeySource }) {
    this.store = deps.store;
    this.runner = deps.runner;
    this.catalog = deps.catalog;
    this.keys = deps.keys;
  }

  /** The user's deposit address for a currency on one of its chains (chain type 0 when it has one). */
  async address(
    userId: number,
    currencyId: number,
    chainType: number | undefined,
  ): Promise<DepositAddressView> {
    const currency = await this.catalog.currency(currencyId);
    if (!currency || !currency.isEnabled) refuse('wallet.currency_unknown');
    const chain =
      chainType === undefined
        ? currency.chains[0]
        : currency.chains.find((item) => item.chainType === chainType);
    if (!chain) refuse('wallet.chain_unavailable');
    const derived = (await this.keys.load()).derive(chain.network, userId);
    if (!derived) refuse('wallet.address_unavailable');
    await this.store.query(
      `insert into deposit_addresses (user_id, network, address, derivation_path, key_fingerprint)
       values ($1, $2, $3, $4, $5)
       on conflict do nothing`,
      [userId, derived.network, derived.address, derived.path, derived.keyFingerprint],
    );
    return {
      currency,
      chainType: chain.chainType,
      chainCode: chain.code,
      network: chain.network,
      address: derived.address,
      confirmations: chain.confirmations,
      chains: currency.chains.map((item) => ({ type: item.chainType, code: item.code })),
    };
  }

  /** The user a deposit address belongs to (any key it was ever derived from). */
  async addressOwner(network: string, address: string): Promise<number | undefined> {
    const { rows } = await this.store.query<{ user_id: number }>(
      'select user_id from deposit_addresses where network = $1 and address = $2',
      [network, address],
    );
    return rows[0]?.user_id;
  }

  /**
   * Credits a deposit once. A repeat answers `duplicate` and moves nothing. `record` runs in the transaction
   * that inserts the deposit row (an administrator's audit entry).
   */
  async credit(
    input: CreditInput,
    record?: (db: Queryable, depositId: number) => Promise<void>,
  ): Promise<CreditResult> {
    return this.mutex.run(`${input.txId}\n${input.address}\n${input.coinType}`, async () => {
      const insertedId = await this.store.transaction(async (tx) => {
        const id = await insertDeposit(tx, input);
        if (id !== undefined && record) await record(tx, id);
        return id;
      });
      if (insertedId !== undefined) {
        await this.finishCredit({
          id: insertedId,
          user_id: input.userId,
          currency_id: input.currencyId,
          amount: input.amount,
          status: 'pending',
        });
        return { outcome: 'credited', depositId: insertedId };
      }
      const existing = await this.store.query<DepositRow>(
        `select id, user_id, currency_id, amount, status from deposits
          where lower(tx_id) = lower($1) and address = $2 and coin_type = $3`,
        [input.txId, input.address, input.coinType],
      );
      const row = existing.rows[0];
      if (!row) throw new Error('a deposit row vanished between insert and select');
      if (row.status === 'pending') await this.finishCredit(row);
      return { outcome: 'duplicate', depositId: row.id };
    });
  }

  /** An administrator's credit in the sandbox: the same ledger path as a chain deposit, audited. */
  async creditByHand(input: {
    adminId: number;
    ip: string | null;
    userId: number;
    currencyId: number;
    amount: bigint;
    note: string;
  }): Promise<CreditResult> {
    const currency = await this.catalog.currency(input.currencyId);
    if (!currency) refuse('wallet.currency_unknown');
    const user = await this.store.query('select 1 from users where id = $1', [input.userId]);
    if (user.rowCount === 0) refuse('wallet.user_unknown');
    const txId = `manual:${randomUUID()}`;
    return this.credit(
      {
        userId: input.userId,
        currencyId: input.currencyId,
        chainType: null,
        address: '',
        coinType: '',
        txId,
        tradeId: null,
        chainAmount: input.amount,
        chainDecimals: currency.scale,
        amount: input.amount,
        source: 'manual',
        adminId: input.adminId,
        note: input.note,
      },
      (db, depositId) =>
        auditWallet(db, {
          adminId: input.adminId,
          action: 'wallet.manual_deposit',
          targetType: 'deposit',
          targetId: depositId,
          detail: {
            user_id: input.userId,
            currency: currency.code,
            amount: formatDecimal(input.amount, currency.scale),
            note: input.note,
          },
          ip: input.ip,
        }),
    );
  }

  private async finishCredit(row: DepositRow): Promise<void> {
    const memo = `deposit:${row.id}`;
    let seq = await creditedSeq(this.store, row.user_id, row.currency_id, memo);
    if (seq === undefined) {
      const outcome = await submitCommand(
        this.runner,
        {
          type: 'deposit',
          userId: row.user_id,
          currencyId: row.currency_id,
          amount: BigInt(row.amount),
          memo,
        },
        memo,
      );
      if (outcome.code !== 0)
        throw new Error(`the engine refused deposit ${row.id} with code ${outcome.code}`);
      seq = outcome.seq;
    }
    await this.store.query(
      `update deposits set status = 'credited', engine_seq = $2, credited_at = now()
        where id = $1 and status = 'pending'`,
      [row.id, seq],
    );
  }

  /** Finishes deposits a crash left pending (at start, before serving). */
  async reconcile(projected: () => Promise<unknown> = async () => {}): Promise<number> {
    const { rows } = await this.store.query<DepositRow>(
      `select id, user_id, currency_id, amount, status from deposits where status = 'pending' order by id`,
    );
    // Whether a deposit was credited is read from the account log: it must hold every committed command.
    if (rows.length > 0) await projected();
    for (const row of rows) await this.finishCredit(row);
    return rows.length;
  }

  async records(
    userId: number,
    currencyId: number | undefined,
    page: number,
    perPage: number,
  ): Promise<Paged<DepositRecord>> {
    const filter = currencyId === undefined ? '' : 'and d.currency_id = $2';
    const params: unknown[] = currencyId === undefined ? [userId] : [userId, currencyId];
    const total = await this.store.query<{ count: string | number }>(
      `select count(*) as count from deposits d where d.user_id = $1 ${filter}`,
      params,
    );
    const { rows } = await this.store.query<{
      id: number;
      currency_id: number;
      chain_type: number | null;
      address: string;
      tx_id: string;
      amount: string;
      source: DepositSource;
      status: DepositRecord['status'];
      created_at: Date;
    }>(
      `select d.id, d.currency_id, d.chain_type, d.address, d.tx_id, d.amount, d.source, d.status, d.created_at
         from deposits d where d.user_id = $1 ${filter}
        order by d.id desc limit ${perPage} offset ${(page - 1) * perPage}`,
      params,
    );
    const records: DepositRecord[] = [];
    for (const row of rows) {
      const currency = await this.catalog.currency(row.currency_id);
      const chain = currency?.chains.find((item) => item.chainType === row.chain_type);
      records.push({
        id: row.id,
        created_time: row.created_at.toISOString(),
        currency: row.currency_id,
        currency_name: currency?.code ?? '',
        value: formatDecimal(BigInt(row.amount), currency?.scale ?? 0),
        info: row.source,
        chain: chain?.code ?? '',
        address: row.address,
        tx_id: row.source === 'manual' ? '' : row.tx_id,
        status: row.status,
      });
    }
    return paged(records, page, perPage, Number(total.rows[0]?.count ?? 0));
  }
}

async function insertDeposit(db: Queryable, input: CreditInput): Promise<number | undefined> {
  const { rows } = await db.query<{ id: number }>(
    `insert into deposits (user_id, currency_id, chain_type, address, coin_type, tx_id, trade_id,
                           chain_amount, chain_decimals, amount, source, admin_id, note, status)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, 'pending')
     on conflict do nothing
     returning id`,
    [
      input.userId,
      input.currencyId,
      input.chainType,
      input.address,
      input.coinType,
      input.txId,
      input.tradeId,
      input.chainAmount.toString(),
      input.chainDecimals,
      input.amount.toString(),
      input.source,
      input.adminId,
      input.note,
    ],
  );
  return rows[0]?.id;
}

/** The seq of the engine command that credited a memo, from account_log; undefined when none did. */
async function creditedSeq(
  db: Queryable,
  userId: number,
  currencyId: number,
  memo: string,
): Promise<number | undefined> {
  const { rows } = await db.query<{ seq: string | number }>(
    `select seq from account_log
      where owner_key = $1 and currency_id = $2 and reason = $3 and memo = $4 limit 1`,
    [userId, currencyId, ReasonCode.deposit, memo],
  );
  const seq = rows[0]?.seq;
  return seq === undefined ? undefined : Number(seq);
}
