// Withdrawals: request (checked and held by the engine), review by an administrator, payout through an
// adapter, and the custody provider's report of the chain outcome.
//
// Every state change is first claimed in SQL with a conditional update (pending -> approved, approved ->
// completed, ...), so two administrators, or an administrator and a callback, can never both decide one
// withdrawal; the engine command follows with the idempotency key "withdrawal-decision:<id>". A crash
// between the two is finished at the next start (reconcile).
import { ReasonCode } from '@fairex/engine';
import type { Engine } from '@fairex/engine';
import { formatDecimal, paged } from '@fairex/shared';
import { parseAmount } from './amounts.ts';
import type { Paged, WithdrawalRecord, WithdrawalStatus, WithdrawInfo } from '@fairex/shared';
import type { Queryable, Store } from '../store/index.ts';
import { auditWallet } from './audit.ts';
import type { ChainInfo, WalletCatalog, WalletCurrency } from './catalog.ts';
import { checkAddress } from './chains/addresses.ts';
import type { Network } from './chains/addresses.ts';
import type { PayoutAdapter } from './custody/payout.ts';
import { explorerUrl } from './explorers.ts';
import type { WalletRunner } from './engine-calls.ts';
import { refuse, refuseEngineCode, walletRefusal } from './engine-calls.ts';
import { submitCommand, submitOrRefuse } from '../engine-runner/submit.ts';

export type { WithdrawalStatus } from '@fairex/shared';

interface WithdrawalRow {
  id: number;
  user_id: number;
  currency_id: number;
  chain_type: number;
  network: string;
  address: string;
  amount: string;
  fee: string;
  engine_withdrawal_id: string | number | null;
  status: WithdrawalStatus;
  review_note: string | null;
  payout_adapter: string | null;
  payout_error: string | null;
  tx_id: string | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `id, user_id, currency_id, chain_type, network, address, amount, fee, engine_withdrawal_id, status,
  review_note, payout_adapter, payout_error, tx_id, created_at, updated_at`;

import type { SecondFactor } from './second-factor.ts';
export type { SecondFactor };

export interface WithdrawInput {
  userId: number;
  currencyId: number;
  chainType: number | undefined;
  address: string | undefined;
  addressId: number | undefined;
  number: string;
  /** The translated name of the amount field, for refusals. */
  label: string;
  totpCode: string | undefined;
  /** The code sent by e-mail or SMS, when the account has no authenticator. */
  code?: string | undefined;
  /** The client address, for the wrong-code limits. */
  ip?: string;
}

export type { WithdrawalRecord } from '@fairex/shared';

export interface AdminWithdrawal extends WithdrawalRecord {
  user_id: number;
  payout_adapter: string;
  payout_error: string;
}

export interface DecisionContext {
  adminId: number;
  ip: string | null;
}

/** A withdrawal report from the custody provider (tradeType 2). */
export interface WithdrawalReport {
  businessId: string;
  status: 'confirmed' | 'failed' | 'progress';
  address: string;
  chainAmount: bigint;
  chainDecimals: number;
  txId: string;
  tradeId: string;
}

export type ReportOutcome = 'withdrawal_completed' | 'withdrawal_failed' | 'duplicate' | 'noted' | 'refused';

export class WithdrawalService {
  private readonly store: Store;
  private readonly runner: WalletRunner;
  private readonly catalog: WalletCatalog;
  private readonly payout: PayoutAdapter;
  readonly secondFactor: SecondFactor;

  constructor(deps: {
    store: Store;
    runner: WalletRunner;
    catalog: WalletCatalog;
    payout: PayoutAdapter;
    secondFactor: SecondFactor;
  }) {
    this.store = deps.store;
    this.runner = deps.runner;
    this.catalog = deps.catalog;
    this.payout = deps.payout;
    this.secondFactor = deps.secondFactor;
  }

  get payoutAdapter(): 'custody' | 'sandbox' {
    return this.payout.name;
  }

  private get engine(): Engine {
    return this.runner.engine;
  }

  async currencyWithChains(currencyId: number): Promise<WalletCurrency> {
    const currency = await this.catalog.currency(currencyId);
    if (!currency || !currency.isEnabled) refuse('wallet.currency_unknown');
    if (currency.chains.length === 0) refuse('wallet.chain_unavailable');
    return currency;
  }

  /** What the withdrawal page shows: balance, fee, minimum, chains, whether a second factor is needed. */
  async info(userId: number, currencyId: number): Promise<Omit<WithdrawInfo, 'real_name_required'>> {
    const currency = await this.currencyWithChains(currencyId);
    const balance = this.engine.ledger.balance(userId, 'change', currencyId);
    return {
      currency: currency.id,
      name: currency.code,
      scale: currency.scale,
      change_balance: formatDecimal(balance.available, currency.scale),
      lock_change_balance: formatDecimal(balance.locked, currency.scale),
      rate: formatDecimal(currency.withdrawFee, currency.scale),
      min_number: formatDecimal(currency.withdrawMin, currency.scale),
      chains: currency.chains.map((chain) => ({
        type: chain.chainType,
        code: chain.code,
        network: chain.network,
      })),
      totp_required: await this.secondFactor.isOn(userId),
      // What protects this withdrawal: totp (the authenticator's code), or email / sms (a code sent there
      // by POST /wallet/security_code), and where codes go, masked.
      second_factor: await this.secondFactor.method(userId),
    };
  }

  /** Checks an address for one of the currency's chains; a valid address of a sibling chain is named as such. */
  checkAddressFor(currency: WalletCurrency, chain: ChainInfo, address: string): string {
    const check = checkAddress(chain.network, address);
    if (check.ok) return check.address;
    const sibling = currency.chains.find(
      (other) => other.network !== chain.network && checkAddress(other.network, address).ok,
    );
    if (sibling) refuse('wallet.address_wrong_chain', { chain: chain.code, other: sibling.code });
    refuse(check.problem === 'checksum' ? 'wallet.address_checksum' : 'wallet.address_invalid', {
      chain: chain.code,
    });
  }

  async request(input: WithdrawInput): Promise<{ id: number }> {
    const currency = await this.currencyWithChains(input.currencyId);
    const target = await this.target(input, currency);
    const amount = parseAmount(input.number, currency.scale, input.label);
    if (amount < currency.withdrawMin) {
      refuse('wallet.amount_too_small', {
        min: formatDecimal(currency.withdrawMin, currency.scale, { trim: true }),
        currency: currency.code,
      });
    }
    if (amount <= currency.withdrawFee) {
      refuse('wallet.amount_not_above_fee', {
        fee: formatDecimal(currency.withdrawFee, currency.scale, { trim: true }),
        currency: currency.code,
      });
    }
    // Checked against the engine before anything is written; the engine checks again, atomically.
    if (this.engine.ledger.balance(input.userId, 'change', currency.id).available < amount) {
      refuse('wallet.insufficient_balance');
    }
    // The second factor comes last, so a typo elsewhere does not use up the code (wallets/second-factor.ts).
    await this.secondFactor.verify(input.userId, {
      totpCode: input.totpCode,
      code: input.code,
      ip: input.ip ?? '',
    });
    const { rows } = await this.store.query<{ id: number }>(
      `insert into withdrawals (user_id, currency_id, chain_type, network, address, amount, fee, status)
       values ($1, $2, $3, $4, $5, $6, $7, 'requested') returning id`,
      [
        input.userId,
        currency.id,
        target.chain.chainType,
        target.chain.network,
        target.address,
        amount.toString(),
        currency.withdrawFee.toString(),
      ],
    );
    const id = rows[0]?.id as number;
    const memo = `withdrawal:${id}`;
    let outcome;
    try {
      outcome = await submitCommand(
        this.runner,
        {
          type: 'requestWithdrawal',
          userId: input.userId,
          currencyId: currency.id,
          amount,
          feeAmount: currency.withdrawFee,
          memo,
        },
        memo,
      );
    } catch (error) {
      // The runner did not take the command (overloaded or stopped): nothing is held.
      await this.store.query(`delete from withdrawals where id = $1 and status = 'requested'`, [id]);
      throw error;
    }
    if (outcome.code !== 0) {
      await this.store.query(`delete from withdrawals where id = $1 and status = 'requested'`, [id]);
      refuseEngineCode(outcome.code);
    }
    const engineId = (outcome.reply as { withdrawalId: number }).withdrawalId;
    await this.store.query(
      `update withdrawals set engine_withdrawal_id = $2, status = 'pending', updated_at = now()
        where id = $1 and status = 'requested'`,
      [id, engineId],
    );
    return { id };
  }

  /** Where the money goes: an address of the book (own only) or one typed in, checked for its chain. */
  private async target(
    input: WithdrawInput,
    currency: WalletCurrency,
  ): Promise<{ chain: ChainInfo; address: string }> {
    if (input.addressId !== undefined) {
      const { rows } = await this.store.query<{ chain_type: number; address: string }>(
        'select chain_type, address from withdraw_addresses where id = $1 and user_id = $2 and currency_id = $3',
        [input.addressId, input.userId, currency.id],
      );
      const entry = rows[0];
      if (!entry) refuse('wallet.address_not_found');
      const chain = currency.chains.find((item) => item.chainType === entry.chain_type);
      if (!chain) refuse('wallet.chain_unavailable');
      if (input.chainType !== undefined && input.chainType !== chain.chainType) {
        refuse('wallet.address_wrong_chain', {
          chain: currency.chains.find((item) => item.chainType === input.chainType)?.code ?? '',
          other: chain.code,
        });
      }
      return { chain, address: this.checkAddressFor(currency, chain, entry.address) };
    }
    if (input.address === undefined) refuse('validation.required', { field: 'address' });
    const chain =
      input.chainType === undefined
        ? currency.chains[0]
        : currency.chains.find((item) => item.chainType === input.chainType);
    if (!chain) refuse('wallet.chain_unavailable');
    return { chain, address: this.checkAddressFor(currency, chain, input.address) };
  }

  async records(
    userId: number,
    currencyId: number | undefined,
    page: number,
    perPage: number,
  ): Promise<Paged<WithdrawalRecord>> {
    const filter = currencyId === undefined ? '' : 'and currency_id = $2';
    const params: unknown[] = currencyId === undefined ? [userId] : [userId, currencyId];
    const total = await this.store.query<{ count: string | number }>(
      `select count(*) as count from withdrawals where user_id = $1 and status <> 'requested' ${filter}`,
      params,
    );
    const { rows } = await this.store.query<WithdrawalRow>(
      `select ${COLUMNS} from withdrawals where user_id = $1 and status <> 'requested' ${filter}
        order by id desc limit ${perPage} offset ${(page - 1) * perPage}`,
      params,
    );
    const records: WithdrawalRecord[] = [];
    for (const row of rows) records.push(await this.record(row));
    return paged(records, page, perPage, Number(total.rows[0]?.count ?? 0));
  }

  private async record(row: WithdrawalRow): Promise<WithdrawalRecord> {
    const currency = await this.catalog.currency(row.currency_id);
    const scale = currency?.scale ?? 0;
    const amount = BigInt(row.amount);
    const fee = BigInt(row.fee);
    return {
      id: row.id,
      create_time: row.created_at.toISOString(),
      currency: row.currency_id,
      currency_name: currency?.code ?? '',
      number: formatDecimal(amount, scale),
      fee: formatDecimal(fee, scale),
      receive: formatDecimal(amount - fee, scale),
      address: row.address,
      chain: currency?.chains.find((chain) => chain.chainType === row.chain_type)?.code ?? row.network,
      status: row.status,
      tx_id: row.tx_id ?? '',
      explorer_url: row.payout_adapter === 'sandbox' ? null : explorerUrl(row.network, row.tx_id),
      note: row.review_note ?? '',
    };
  }

  async adminList(
    status: WithdrawalStatus | undefined,
    page: number,
    perPage: number,
  ): Promise<Paged<AdminWithdrawal>> {
    const filter = status === undefined ? "status <> 'requested'" : 'status = $1';
    const params = status === undefined ? [] : [status];
    const total = await this.store.query<{ count: string | number }>(
      `select count(*) as count from withdrawals where ${filter}`,
      params,
    );
    const { rows } = await this.store.query<WithdrawalRow>(
      `select ${COLUMNS} from withdrawals where ${filter} order by id desc limit ${perPage} offset ${(page - 1) * perPage}`,
      params,
    );
    const list: AdminWithdrawal[] = [];
    for (const row of rows) {
      list.push({
        ...(await this.record(row)),
        user_id: row.user_id,
        payout_adapter: row.payout_adapter ?? '',
        payout_error: row.payout_error ?? '',
      });
    }
    return paged(list, page, perPage, Number(total.rows[0]?.count ?? 0));
  }

  /**
   * Approves a pending withdrawal and hands it to the payout adapter. A clear refusal by the provider puts
   * it back to pending (nothing left); an unclear answer leaves it approved with the problem noted.
   */
  async approve(
    id: number,
    context: DecisionContext,
  ): Promise<{ status: WithdrawalStatus; payoutError: string }> {
    const row = await this.store.transaction(async (tx) => {
      const claimed = await tx.query<WithdrawalRow>(
        `update withdrawals set status = 'approved', reviewed_by = $2, reviewed_at = now(), payout_adapter = $3,
                payout_error = null, updated_at = now()
          where id = $1 and status = 'pending' returning ${COLUMNS}`,
        [id, context.adminId, this.payout.name],
      );
      const claimedRow = claimed.rows[0];
      if (!claimedRow) return undefined;
      await auditWallet(tx, {
        adminId: context.adminId,
        action: 'wallet.withdrawal_approve',
        targetType: 'withdrawal',
        targetId: id,
        detail: { payout_adapter: this.payout.name },
        ip: context.ip,
      });
      return claimedRow;
    });
    if (!row) return this.refuseDecision(id);
    const result = await this.sendPayout(row);
    if (result.status === 'accepted') return { status: 'approved', payoutError: '' };
    if (result.status === 'refused') {
      await this.store.transaction(async (tx) => {
        await tx.query(
          `update withdrawals set status = 'pending', payout_error = $2, updated_at = now()
            where id = $1 and status = 'approved'`,
          [id, result.reason],
        );
        await auditWallet(tx, {
          adminId: context.adminId,
          action: 'wallet.withdrawal_payout_refused',
          targetType: 'withdrawal',
          targetId: id,
          detail: { reason: result.reason },
          ip: context.ip,
        });
      });
      refuse('wallet.payout_refused', { reason: result.reason });
    }
    await this.store.query(`update withdrawals set payout_error = $2, updated_at = now() where id = $1`, [
      id,
      result.reason,
    ]);
    return { status: 'approved', payoutError: result.reason };
  }

  /** Sends an approved payout again (same business id) after an unclear answer. */
  async resend(id: number, context: DecisionContext): Promise<{ payoutError: string }> {
    const row = await this.find(id);
    if (!row) refuse('wallet.withdrawal_not_found');
    if (row.status !== 'approved' || row.payout_error === null) refuse('wallet.withdrawal_decided');
    await auditWallet(this.store, {
      adminId: context.adminId,
      action: 'wallet.withdrawal_payout_resend',
      targetType: 'withdrawal',
      targetId: id,
      detail: {},
      ip: context.ip,
    });
    const result = await this.sendPayout(row);
    const error = result.status === 'accepted' ? null : result.reason;
    await this.store.query(`update withdrawals set payout_error = $2, updated_at = now() where id = $1`, [
      id,
      error,
    ]);
    return { payoutError: error ?? '' };
  }

  private async sendPayout(row: WithdrawalRow) {
    const currency = await this.catalog.currency(row.currency_id);
    const chain = currency?.chains.find((item) => item.chainType === row.chain_type);
    if (!currency || !chain)
      return { status: 'refused' as const, reason: 'the chain is no longer configured' };
    return this.payout.send({
      withdrawalId: row.id,
      address: row.address,
      payoutAmount: BigInt(row.amount) - BigInt(row.fee),
      scale: currency.scale,
      mainCoinType: chain.mainCoinType,
      coinType: chain.coinType,
    });
  }

  /** Rejects a pending withdrawal: the whole held amount returns to the user. */
  async reject(id: number, note: string, context: DecisionContext): Promise<void> {
    const row = await this.store.transaction(async (tx) => {
      const claimed = await tx.query<WithdrawalRow>(
        `update withdrawals set status = 'rejected', review_note = $2, reviewed_by = $3, reviewed_at = now(),
                updated_at = now()
          where id = $1 and status = 'pending' returning ${COLUMNS}`,
        [id, note, context.adminId],
      );
      const claimedRow = claimed.rows[0];
      if (!claimedRow) return undefined;
      await auditWallet(tx, {
        adminId: context.adminId,
        action: 'wallet.withdrawal_reject',
        targetType: 'withdrawal',
        targetId: id,
        detail: { note },
        ip: context.ip,
      });
      return claimedRow;
    });
    if (!row) return this.refuseDecision(id);
    await this.applyDecision(row);
  }

  /** The sandbox's stand-in for the chain: an administrator confirms an approved sandbox payout. */
  async confirmSandboxPayout(id: number, txId: string, context: DecisionContext): Promise<void> {
    const row = await this.store.transaction(async (tx) => {
      const claimed = await tx.query<WithdrawalRow>(
        `update withdrawals set status = 'completed', tx_id = $2, updated_at = now()
          where id = $1 and status = 'approved' and payout_adapter = 'sandbox' returning ${COLUMNS}`,
        [id, txId],
      );
      const claimedRow = claimed.rows[0];
      if (!claimedRow) return undefined;
      await auditWallet(tx, {
        adminId: context.adminId,
        action: 'wallet.withdrawal_sandbox_confirm',
        targetType: 'withdrawal',
        targetId: id,
        detail: { tx_id: txId },
        ip: context.ip,
      });
      return claimedRow;
    });
    if (!row) return this.refuseDecision(id);
    await this.applyDecision(row);
  }

  /** A tradeType 2 report from the custody provider. */
  async report(report: WithdrawalReport): Promise<{ outcome: ReportOutcome; detail: string }> {
    if (!/^\d{1,10}$/.test(report.businessId)) return { outcome: 'refused', detail: 'unknown business id' };
    const row = await this.find(Number(report.businessId));
    if (!row) return { outcome: 'refused', detail: 'unknown business id' };
    const currency = await this.catalog.currency(row.currency_id);
    if (!currency) return { outcome: 'refused', detail: 'currency missing' };
    const reported = checkAddress(row.network as Network, report.address);
    if (!reported.ok || reported.address !== row.address) {
      return { outcome: 'refused', detail: 'address does not match the withdrawal' };
    }
    const payout = BigInt(row.amount) - BigInt(row.fee);
    if (!sameAmount(report.chainAmount, report.chainDecimals, payout, currency.scale)) {
      return { outcome: 'refused', detail: 'amount does not match the withdrawal' };
    }
    if (report.status === 'progress') return { outcome: 'noted', detail: row.status };
    const next = report.status === 'confirmed' ? 'completed' : 'failed';
    if (row.status === next) return { outcome: 'duplicate', detail: next };
    if (row.status !== 'approved') return { outcome: 'refused', detail: `withdrawal is ${row.status}` };
    const claimed = await this.store.query<WithdrawalRow>(
      `update withdrawals set status = $2, tx_id = nullif($3, ''), trade_id = nullif($4, ''), updated_at = now()
        where id = $1 and status = 'approved' returning ${COLUMNS}`,
      [row.id, next, report.txId, report.tradeId],
    );
    const claimedRow = claimed.rows[0];
    if (!claimedRow) return { outcome: 'duplicate', detail: 'decided meanwhile' };
    await this.applyDecision(claimedRow);
    return { outcome: next === 'completed' ? 'withdrawal_completed' : 'withdrawal_failed', detail: '' };
  }

  async find(id: number): Promise<WithdrawalRow | undefined> {
    const { rows } = await this.store.query<WithdrawalRow>(
      `select ${COLUMNS} from withdrawals where id = $1`,
      [id],
    );
    return rows[0];
  }

  private async refuseDecision(id: number): Promise<never> {
    const row = await this.find(id);
    if (!row || row.status === 'requested') refuse('wallet.withdrawal_not_found');
    refuse('wallet.withdrawal_decided');
  }

  /** Makes the engine follow a decided row: completed posts the hold; rejected and failed release it. */
  private async applyDecision(row: WithdrawalRow): Promise<void> {
    const withdrawalId = Number(row.engine_withdrawal_id);
    const memo = `withdrawal:${row.id}`;
    const key = `withdrawal-decision:${row.id}`;
    if (row.status === 'completed') {
      await submitOrRefuse(
        this.runner,
        { type: 'completeWithdrawal', withdrawalId, memo },
        { idempotencyKey: key, refusal: walletRefusal },
      );
    } else if (row.status === 'rejected' || row.status === 'failed') {
      await submitOrRefuse(
        this.runner,
        { type: 'rejectWithdrawal', withdrawalId, memo },
        { idempotencyKey: key, refusal: walletRefusal },
      );
    }
  }

  /**
   * Finishes what a crash interrupted: requests the engine never answered (held: attach; not held: drop)
   * and decisions the engine has not applied yet.
   */
  async reconcile(projected: () => Promise<unknown> = async () => {}): Promise<number> {
    const pending = new Map<string, number>();
    for (const withdrawal of this.engine.funding.pendingWithdrawals()) {
      if (withdrawal.memo !== undefined) pending.set(withdrawal.memo, withdrawal.withdrawalId);
    }
    let fixed = 0;
    const requested = await this.store.query<WithdrawalRow>(
      `select ${COLUMNS} from withdrawals where status = 'requested' order by id`,
    );
    // A hold missing from the account log deletes the request: the log must hold every committed command.
    if (requested.rows.length > 0) await projected();
    for (const row of requested.rows) {
      const engineId = pending.get(`withdrawal:${row.id}`) ?? (await heldWithdrawalId(this.store, row));
      if (engineId === undefined) {
        await this.store.query(`delete from withdrawals where id = $1 and status = 'requested'`, [row.id]);
      } else {
        await this.store.query(
          `update withdrawals set engine_withdrawal_id = $2, status = 'pending', updated_at = now() where id = $1`,
          [row.id, engineId],
        );
      }
      fixed += 1;
    }
    const decided = await this.store.query<WithdrawalRow>(
      `select ${COLUMNS} from withdrawals where status in ('completed', 'rejected', 'failed')
          and engine_withdrawal_id = any($1::bigint[]) order by id`,
      [[...pending.values()].map(String)],
    );
    for (const row of decided.rows) {
      await this.applyDecision(row);
      fixed += 1;
    }
    return fixed;
  }
}

/** The engine withdrawal id a request's hold got, from account_log (for a hold already decided since). */
async function heldWithdrawalId(db: Queryable, row: WithdrawalRow): Promise<number | undefined> {
  const { rows } = await db.query<{ reference_id: string | number }>(
    `select reference_id from account_log where owner_key = $1 and currency_id = $2 and reason = $3 and memo = $4
      limit 1`,
    [row.user_id, row.currency_id, ReasonCode.withdrawalHold, `withdrawal:${row.id}`],
  );
  const id = rows[0]?.reference_id;
  return id === undefined ? undefined : Number(id);
}

/** Whether a chain amount of `decimals` places equals a minor-unit amount at `scale`. */
function sameAmount(chainAmount: bigint, decimals: number, minor: bigint, scale: number): boolean {
  if (decimals >= scale) return chainAmount === minor * 10n ** BigInt(decimals - scale);
  return chainAmount * 10n ** BigInt(scale - decimals) === minor;
}
