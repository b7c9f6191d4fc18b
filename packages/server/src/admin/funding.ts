// Money entering and leaving, as the operator reviews it: withdrawals with the requesting user's own funding
// history beside them, deposits, the custody callback log, and the chain configuration per currency.
// Decisions on withdrawals and hand credits go through the wallet services (wallets/), which hold the rules;
// this module reads the same tables and edits the chain rows.
import type { Engine } from '@fairex/engine';
import type { Paged } from '@fairex/shared';
import { formatDecimal, paged } from '@fairex/shared';
import { AppError } from '../http/app-error.ts';
import type { Queryable } from '../store/index.ts';
import type { Actor } from './audit-changes.ts';
import { changedFields, recordChange } from './audit-changes.ts';
import type { CallbackLine, ChainLine, DepositLine, WithdrawalContext, WithdrawalLine } from '@fairex/shared';
import { ADMIN_WITHDRAWAL_STATUSES } from '@fairex/shared';

export type { CallbackLine, ChainLine, DepositLine, WithdrawalLine } from '@fairex/shared';

export const FUNDING_PAGE_SIZE = 20;
export const WITHDRAWAL_STATUSES = ADMIN_WITHDRAWAL_STATUSES;
export type WithdrawalStatusFilter = (typeof WITHDRAWAL_STATUSES)[number];

interface WithdrawalRow {
  id: number;
  user_id: number;
  account: string;
  currency_id: number;
  code: string;
  scale: number;
  chain: string | null;
  network: string;
  address: string;
  amount: string;
  fee: string;
  status: string;
  review_note: string | null;
  reviewed_by: string | null;
  reviewed_at: Date | null;
  payout_adapter: string | null;
  payout_error: string | null;
  tx_id: string | null;
  created_at: Date;
}

const WITHDRAWAL_SELECT = `select w.id, w.user_id, u.account, w.currency_id, c.code, c.scale, ch.code as chain, w.network,
    w.address, w.amount::text, w.fee::text, w.status, w.review_note, a.username as reviewed_by, w.reviewed_at,
    w.payout_adapter, w.payout_error, w.tx_id, w.created_at
  from withdrawals w
  join users u on u.id = w.user_id
  join currencies c on c.id = w.currency_id
  left join wallet_chains ch on ch.currency_id = w.currency_id and ch.chain_type = w.chain_type
  left join admins a on a.id = w.reviewed_by`;

function withdrawalLine(row: WithdrawalRow): WithdrawalLine {
  const amount = BigInt(row.amount);
  const fee = BigInt(row.fee);
  return {
    id: row.id,
    user_id: row.user_id,
    account: row.account,
    currency_id: row.currency_id,
    currency: row.code,
    chain: row.chain ?? row.network,
    address: row.address,
    amount: formatDecimal(amount, row.scale),
    fee: formatDecimal(fee, row.scale),
    receive: formatDecimal(amount - fee, row.scale),
    status: row.status,
    review_note: row.review_note,
    reviewed_by: row.reviewed_by,
    reviewed_at: row.reviewed_at?.toISOString() ?? null,
    payout_adapter: row.payout_adapter,
    payout_error: row.payout_error,
    tx_id: row.tx_id,
    created_at: row.created_at.toISOString(),
  };
}

export async function listWithdrawals(
  db: Queryable,
  input: { status?: WithdrawalStatusFilter | undefined; userId?: number | undefined; page: number },
): Promise<Paged<WithdrawalLine>> {
  // 'requested' rows are the instant before the engine answered; they are nobody's to decide.
  const conditions = [`w.status <> 'requested'`];
  const params: unknown[] = [];
  if (input.status !== undefined) {
    params.push(input.status);
    conditions.push(`w.status = $${params.length}`);
  }
  if (input.userId !== undefined) {
    params.push(input.userId);
    conditions.push(`w.user_id = $${params.length}`);
  }
  const where = `where ${conditions.join(' and ')}`;
  const { rows: total } = await db.query<{ count: number }>(
    `select count(*)::int as count from withdrawals w ${where}`,
    params,
  );
  // Pending ones oldest first (a queue); the rest newest first.
  const order = input.status === 'pending' ? 'w.id asc' : 'w.id desc';
  const { rows } = await db.query<WithdrawalRow>(
    `${WITHDRAWAL_SELECT} ${where} order by ${order}
      limit ${FUNDING_PAGE_SIZE} offset ${(input.page - 1) * FUNDING_PAGE_SIZE}`,
    params,
  );
  return paged(rows.map(withdrawalLine), input.page, FUNDING_PAGE_SIZE, total[0]?.count ?? 0);
}

export async function findWithdrawal(db: Queryable, id: number): Promise<WithdrawalLine> {
  const { rows } = await db.query<WithdrawalRow>(
    `${WITHDRAWAL_SELECT} where w.id = $1 and w.status <> 'requested'`,
    [id],
  );
  const row = rows[0];
  if (!row) throw new AppError('wallet.withdrawal_not_found');
  return withdrawalLine(row);
}

export async function listDeposits(
  db: Queryable,
  input: { userId?: number | undefined; page: number },
): Promise<Paged<DepositLine>> {
  const params: unknown[] = [];
  let where = '';
  if (input.userId !== undefined) {
    params.push(input.userId);
    where = 'where d.user_id = $1';
  }
  const { rows: total } = await db.query<{ count: number }>(
    `select count(*)::int as count from deposits d ${where}`,
    params,
  );
  const { rows } = await db.query<{
    id: number;
    user_id: number;
    account: string;
    code: string;
    scale: number;
    chain: string | null;
    address: string;
    tx_id: string;
    amount: string;
    source: string;
    admin: string | null;
    note: string | null;
    status: string;
    created_at: Date;
    credited_at: Date | null;
  }>(
    `select d.id, d.user_id, u.account, c.code, c.scale, ch.code as chain, d.address, d.tx_id, d.amount::text,
            d.source, a.username as admin, d.note, d.status, d.created_at, d.credited_at
       from deposits d
       join users u on u.id = d.user_id
       join currencies c on c.id = d.currency_id
       left join wallet_chains ch on ch.currency_id = d.currency_id and ch.chain_type = d.chain_type
       left join admins a on a.id = d.admin_id
       ${where} order by d.id desc limit ${FUNDING_PAGE_SIZE} offset ${(input.page - 1) * FUNDING_PAGE_SIZE}`,
    params,
  );
  return paged(
    rows.map((row) => ({
      id: row.id,
      user_id: row.user_id,
      account: row.account,
      currency: row.code,
      chain: row.chain,
      address: row.address,
      tx_id: row.tx_id,
      amount: formatDecimal(BigInt(row.amount), row.scale),
      source: row.source,
      admin: row.admin,
      note: row.note,
      status: row.status,
      created_at: row.created_at.toISOString(),
      credited_at: row.credited_at?.toISOString() ?? null,
    })),
    input.page,
    FUNDING_PAGE_SIZE,
    total[0]?.count ?? 0,
  );
}

export async function listCallbacks(
  db: Queryable,
  input: { page: number; outcome?: string | undefined },
): Promise<Paged<CallbackLine>> {
  const params: unknown[] = [];
  let where = '';
  if (input.outcome !== undefined) {
    params.push(input.outcome);
    where = 'where outcome = $1';
  }
  const { rows: total } = await db.query<{ count: number }>(
    `select count(*)::int as count from custody_callbacks ${where}`,
    params,
  );
  const { rows } = await db.query<
    Omit<CallbackLine, 'received_at' | 'id'> & { id: string; received_at: Date }
  >(
    `select id::text, received_at, ip, sign_ok, outcome, detail, trade_type, tx_id, body
       from custody_callbacks ${where} order by id desc
      limit ${FUNDING_PAGE_SIZE} offset ${(input.page - 1) * FUNDING_PAGE_SIZE}`,
    params,
  );
  return paged(
    rows.map((row) => ({ ...row, received_at: row.received_at.toISOString() })),
    input.page,
    FUNDING_PAGE_SIZE,
    total[0]?.count ?? 0,
  );
}

/**
 * What a reviewer wants beside a withdrawal: the user's balance in that currency now, their other
 * withdrawals and their deposits, and totals in and out of that currency. A withdrawal larger than all the
 * user ever deposited and traded for is worth a second look.
 */
export async function withdrawalContext(
  db: Queryable,
  engine: Engine,
  withdrawal: WithdrawalLine,
): Promise<WithdrawalContext> {
  const currency = engine.ledger.currency(withdrawal.currency_id);
  const scale = currency?.scale ?? 0;
  const balance = engine.ledger.wallets(withdrawal.user_id, withdrawal.currency_id).change;
  const { rows } = await db.query<{
    deposited: string;
    withdrawn: string;
    withdrawals: number;
    deposits: number;
  }>(
    `select coalesce((select sum(amount) from deposits where user_id = $1 and currency_id = $2
                       and status = 'credited'), 0)::text as deposited,
            coalesce((select sum(amount) from withdrawals where user_id = $1 and currency_id = $2
                       and status in ('approved', 'completed')), 0)::text as withdrawn,
            (select count(*)::int from withdrawals where user_id = $1 and status <> 'requested') as withdrawals,
            (select count(*)::int from deposits where user_id = $1) as deposits`,
    [withdrawal.user_id, withdrawal.currency_id],
  );
  const totals = rows[0];
  return {
    balance: {
      available: formatDecimal(balance.available, scale),
      locked: formatDecimal(balance.locked, scale),
    },
    deposited_total: formatDecimal(BigInt(totals?.deposited ?? '0'), scale),
    withdrawn_total: formatDecimal(BigInt(totals?.withdrawn ?? '0'), scale),
    withdrawal_count: totals?.withdrawals ?? 0,
    deposit_count: totals?.deposits ?? 0,
    withdrawals: (await listWithdrawals(db, { userId: withdrawal.user_id, page: 1 })).data,
    deposits: (await listDeposits(db, { userId: withdrawal.user_id, page: 1 })).data,
  };
}

export async function listChains(db: Queryable): Promise<ChainLine[]> {
  const { rows } = await db.query<ChainLine>(
    `select ch.currency_id, c.code as currency, c.udun_id, ch.chain_type, ch.code, ch.network, ch.main_coin_type,
            ch.coin_type, ch.chain_decimals, ch.confirmations, ch.is_enabled
       from wallet_chains ch join currencies c on c.id = ch.currency_id
      order by c.display_order, ch.currency_id, ch.chain_type`,
  );
  return rows;
}

/** Changes what an operator may change on a chain row: confirmations waited for, and whether it is offered. */
export async function updateChain(
  db: Queryable,
  actor: Actor,
  input: {
    currencyId: number;
    chainType: number;
    confirmations?: number | undefined;
    isEnabled?: boolean | undefined;
  },
): Promise<void> {
  const { rows } = await db.query<{ confirmations: number; is_enabled: boolean; code: string }>(
    'select confirmations, is_enabled, code from wallet_chains where currency_id = $1 and chain_type = $2 for update',
    [input.currencyId, input.chainType],
  );
  const row = rows[0];
  if (!row) throw new AppError('backoffice.chain_not_found');
  const { before, after } = changedFields(
    { confirmations: row.confirmations, is_enabled: row.is_enabled },
    { confirmations: input.confirmations, is_enabled: input.isEnabled },
  );
  if (Object.keys(after).length === 0) throw new AppError('backoffice.nothing_changed');
  await db.query(
    `update wallet_chains set confirmations = coalesce($3, confirmations), is_enabled = coalesce($4, is_enabled)
      where currency_id = $1 and chain_type = $2`,
    [input.currencyId, input.chainType, input.confirmations ?? null, input.isEnabled ?? null],
  );
  await recordChange(db, actor, {
    action: 'chain.update',
    targetType: 'chain',
    targetId: `${input.currencyId}:${input.chainType}`,
    before,
    after,
    detail: { chain: row.code },
  });
}
