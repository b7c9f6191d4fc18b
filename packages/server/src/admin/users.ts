// Users as an operator sees them: search, one user's record with balances in all six wallets (from the
// engine), orders (the orders projection), ledger (account_log), log-ins (sessions), deposits and
// withdrawals; and the second-factor reset.
import type { Engine, Wallet } from '@fairex/engine';
import { reasonName, WALLETS } from '@fairex/engine';
import type {
  BalanceLine,
  LedgerLine,
  LoginLine,
  Paged,
  UserDetail,
  UserOrderLine as OrderLine,
} from '@fairex/shared';
import { formatDecimal, pageRows, paged } from '@fairex/shared';
import { AppError } from '../http/app-error.ts';
import { cancelReasonOf, kindOf, sideOf, statusOf } from '../spot/order-codes.ts';
import type { Queryable } from '../store/index.ts';
import type { Actor } from './audit-changes.ts';
import { recordChange } from './audit-changes.ts';
import type { FreezeState, UserSummary } from '@fairex/shared';

export type { BalanceLine, LedgerLine, UserDetail, UserSummary } from '@fairex/shared';
export type { UserOrderLine as OrderLine } from '@fairex/shared';

export const USERS_PAGE_SIZE = 20;

interface UserRow {
  id: number;
  account: string;
  email: string | null;
  phone: string | null;
  area_code: string | null;
  review_status: number;
  totp_enabled: boolean;
  created_at: Date;
  last_login_at: Date | null;
  frozen_trading: boolean | null;
  frozen_withdrawals: boolean | null;
  is_demo: boolean;
}

const SUMMARY_COLUMNS = `u.id, u.account, u.email, u.phone, u.area_code, u.review_status,
  (u.totp_secret is not null) as totp_enabled, u.created_at, u.last_login_at,
  f.trading as frozen_trading, f.withdrawals as frozen_withdrawals, u.is_demo`;

function summary(row: UserRow): UserSummary {
  return {
    id: row.id,
    account: row.account,
    email: row.email,
    phone: row.phone === null ? null : `${row.area_code ? `+${row.area_code} ` : ''}${row.phone}`,
    review_status: row.review_status,
    totp_enabled: row.totp_enabled,
    created_at: row.created_at.toISOString(),
    last_login_at: row.last_login_at?.toISOString() ?? null,
    frozen_trading: row.frozen_trading === true,
    frozen_withdrawals: row.frozen_withdrawals === true,
    demo: row.is_demo === true,
  };
}

/** Users matching a search (an id, or part of the account, e-mail or phone), newest first. */
export async function searchUsers(
  db: Queryable,
  input: { query?: string | undefined; page: number; frozenOnly?: boolean | undefined },
): Promise<Paged<UserSummary>> {
  const conditions: string[] = [];
  const params: unknown[] = [];
  const query = input.query?.trim();
  if (query) {
    params.push(`%${query.replace(/[\\%_]/g, (match) => `\\${match}`)}%`);
    const like = `$${params.length}`;
    const byId = /^\d{1,9}$/.test(query) ? ` or u.id = ${Number(query)}` : '';
    conditions.push(`(u.account ilike ${like} or u.email ilike ${like} or u.phone like ${like}${byId})`);
  }
  if (input.frozenOnly) conditions.push('f.user_id is not null');
  const where = conditions.length === 0 ? '' : `where ${conditions.join(' and ')}`;
  const from = 'from users u left join user_freezes f on f.user_id = u.id';
  const { rows: total } = await db.query<{ count: number }>(
    `select count(*)::int as count ${from} ${where}`,
    params,
  );
  const { rows } = await db.query<UserRow>(
    `select ${SUMMARY_COLUMNS} ${from} ${where} order by u.id desc
      limit ${USERS_PAGE_SIZE} offset ${(input.page - 1) * USERS_PAGE_SIZE}`,
    params,
  );
  return paged(rows.map(summary), input.page, USERS_PAGE_SIZE, total[0]?.count ?? 0);
}

/** One value per wallet, keyed by the wallet's name. */
function eachWallet<T>(value: (wallet: Wallet) => T): Record<Wallet, T> {
  const result = {} as Record<Wallet, T>;
  for (const wallet of WALLETS) result[wallet] = value(wallet);
  return result;
}

export async function requireUser(db: Queryable, userId: number): Promise<void> {
  const { rows } = await db.query('select 1 from users where id = $1', [userId]);
  if (rows.length === 0) throw new AppError('backoffice.user_not_found');
}

export function userBalances(engine: Engine, userId: number): BalanceLine[] {
  const lines: BalanceLine[] = [];
  for (const currency of engine.ledger.currencies()) {
    const wallets = engine.ledger.wallets(userId, currency.currencyId);
    if (WALLETS.every((wallet) => wallets[wallet].available === 0n && wallets[wallet].locked === 0n))
      continue;
    lines.push({
      currency_id: currency.currencyId,
      code: currency.code,
      wallets: eachWallet((wallet) => ({
        available: formatDecimal(wallets[wallet].available, currency.scale),
        locked: formatDecimal(wallets[wallet].locked, currency.scale),
      })),
    });
  }
  return lines;
}

export async function userDetail(
  db: Queryable,
  engine: Engine,
  userId: number,
  freeze: FreezeState | null,
): Promise<UserDetail> {
  const { rows } = await db.query<
    UserRow & {
      extension_code: string;
      parent_id: number | null;
      parent_account: string | null;
      last_login_ip: string | null;
      is_seller: boolean;
      invited_count: number;
    }
  >(
    `select ${SUMMARY_COLUMNS}, u.extension_code, u.parent_id, p.account as parent_account, u.last_login_ip,
            u.is_seller, (select count(*)::int from users c where c.parent_id = u.id) as invited_count
       from users u left join user_freezes f on f.user_id = u.id left join users p on p.id = u.parent_id
      where u.id = $1`,
    [userId],
  );
  const row = rows[0];
  if (!row) throw new AppError('backoffice.user_not_found');
  return {
    ...summary(row),
    extension_code: row.extension_code,
    parent: row.parent_id === null ? null : { id: row.parent_id, account: row.parent_account ?? '' },
    invited_count: row.invited_count,
    last_login_ip: row.last_login_ip,
    is_seller: row.is_seller,
    freeze,
    balances: userBalances(engine, userId),
    open_orders: engine.spot.openOrders(userId).length,
    pending_withdrawals: engine.funding.pendingWithdrawals(userId).length,
  };
}

/** Decimals and integer units of a tick written as decimal text ("0.01" -> 2 decimals, 1 unit). */
export function tickParts(tickSize: string): { scale: number; units: bigint } {
  const [whole = '0', fraction = ''] = tickSize.split('.');
  return { scale: fraction.length, units: BigInt(whole + fraction) };
}

/**
 * A user's orders, newest first: the open ones from the engine (resting, or accepted while a stop-limit
 * order waits for its trigger) merged with the closed ones of the spot_orders projection.
 */
export async function userOrders(
  db: Queryable,
  engine: Engine,
  userId: number,
  page: number,
): Promise<Paged<OrderLine>> {
  const open = engine.spot.openOrders(userId).sort((a, b) => b.orderId - a.orderId);
  const offset = (page - 1) * USERS_PAGE_SIZE;
  const { rows: total } = await db.query<{ count: number }>(
    'select count(*)::int as count from spot_orders where owner_key = $1',
    [userId],
  );
  // Enough of the newest closed orders to fill the page after merging with the open ones.
  const { rows } = await db.query<{
    order_id: string;
    market_id: number;
    side: number;
    kind: number;
    price_ticks: string;
    quantity_lots: string;
    filled_lots: string;
    status: number;
    cancel_reason: number | null;
    fee_paid: string;
    created_time_ms: string;
    closed_time_ms: string;
  }>(
    `select order_id::text, market_id, side, kind, price_ticks::text, quantity_lots::text, filled_lots::text, status,
            cancel_reason, fee_paid::text, created_time_ms::text, closed_time_ms::text
       from spot_orders where owner_key = $1 order by order_id desc limit ${offset + USERS_PAGE_SIZE}`,
    [userId],
  );
  const merged: StoredOrder[] = [
    ...open.map((order): StoredOrder => ({
      orderId: order.orderId,
      marketId: order.marketId,
      side: order.side,
      kind: order.kind,
      priceTicks: BigInt(order.priceTicks),
      quantityLots: BigInt(order.quantityLots),
      filledLots: BigInt(order.filledLots),
      status: order.stopTicks === undefined ? 'resting' : 'accepted',
      cancelReason: null,
      feePaid: order.feePaid,
      createdMs: order.acceptedTimeMs,
      updatedMs: order.updatedTimeMs,
    })),
    ...rows.map((row): StoredOrder => ({
      orderId: Number(row.order_id),
      marketId: row.market_id,
      side: sideOf(row.side),
      kind: kindOf(row.kind),
      priceTicks: BigInt(row.price_ticks),
      quantityLots: BigInt(row.quantity_lots),
      filledLots: BigInt(row.filled_lots),
      status: statusOf(row.status),
      cancelReason: cancelReasonOf(row.cancel_reason),
      feePaid: BigInt(row.fee_paid),
      createdMs: Number(row.created_time_ms),
      updatedMs: Number(row.closed_time_ms),
    })),
  ].sort((a, b) => b.orderId - a.orderId);
  const lines = pageRows(merged, page, USERS_PAGE_SIZE).map((row): OrderLine => {
    const market = engine.spot.market(row.marketId);
    const base = market ? engine.ledger.currency(market.baseCurrencyId) : undefined;
    const quote = market ? engine.ledger.currency(market.quoteCurrencyId) : undefined;
    const tick = tickParts(market?.tickSize ?? '1');
    const baseScale = base?.scale ?? 0;
    const lot = market?.lotBaseMinor ?? 1n;
    // A buy pays its fee in the base currency it receives, a sell in the quote currency.
    const feeCurrency = row.side === 'buy' ? base : quote;
    return {
      order_id: String(row.orderId),
      symbol: base && quote ? `${base.code}/${quote.code}` : String(row.marketId),
      side: row.side,
      kind: row.kind,
      price: row.kind === 'market' ? '' : formatDecimal(row.priceTicks * tick.units, tick.scale),
      quantity: formatDecimal(row.quantityLots * lot, baseScale),
      filled: formatDecimal(row.filledLots * lot, baseScale),
      status: row.status,
      cancel_reason: row.cancelReason,
      fee_paid: formatDecimal(row.feePaid, feeCurrency?.scale ?? 0),
      fee_currency: feeCurrency?.code ?? '',
      created_at: new Date(row.createdMs).toISOString(),
      updated_at: new Date(row.updatedMs).toISOString(),
    };
  });
  return paged(lines, page, USERS_PAGE_SIZE, open.length + (total[0]?.count ?? 0));
}

/** One order line before formatting, open (engine) or closed (projection). */
interface StoredOrder {
  orderId: number;
  marketId: number;
  side: string;
  kind: string;
  priceTicks: bigint;
  quantityLots: bigint;
  filledLots: bigint;
  status: string;
  cancelReason: string | null;
  feePaid: bigint;
  createdMs: number;
  updatedMs: number;
}

export async function userLedger(
  db: Queryable,
  engine: Engine,
  input: { userId: number; currencyId?: number | undefined; page: number },
): Promise<Paged<LedgerLine>> {
  const params: unknown[] = [input.userId];
  let filter = '';
  if (input.currencyId !== undefined) {
    params.push(input.currencyId);
    filter = 'and currency_id = $2';
  }
  const { rows: total } = await db.query<{ count: number }>(
    `select count(*)::int as count from account_log where owner_key = $1 ${filter}`,
    params,
  );
  const { rows } = await db.query<{
    seq: string;
    event_index: number;
    wallet: string;
    currency_id: number;
    available_before: string;
    available_after: string;
    locked_before: string;
    locked_after: string;
    reason: number;
    reference_id: string;
    memo: string | null;
    time_ms: string;
  }>(
    `select seq::text, event_index, wallet, currency_id, available_before::text, available_after::text,
            locked_before::text, locked_after::text, reason, reference_id::text, memo, time_ms::text
       from account_log where owner_key = $1 ${filter}
      order by seq desc, event_index desc
      limit ${USERS_PAGE_SIZE} offset ${(input.page - 1) * USERS_PAGE_SIZE}`,
    params,
  );
  const lines = rows.map((row): LedgerLine => {
    const currency = engine.ledger.currency(row.currency_id);
    const scale = currency?.scale ?? 0;
    const text = (value: bigint) => formatDecimal(value, scale);
    return {
      seq: row.seq,
      time: new Date(Number(row.time_ms)).toISOString(),
      wallet: row.wallet,
      currency: currency?.code ?? String(row.currency_id),
      change: text(BigInt(row.available_after) - BigInt(row.available_before)),
      available_after: text(BigInt(row.available_after)),
      locked_change: text(BigInt(row.locked_after) - BigInt(row.locked_before)),
      locked_after: text(BigInt(row.locked_after)),
      reason: reasonName(row.reason),
      reference_id: row.reference_id,
      memo: row.memo,
    };
  });
  return paged(lines, input.page, USERS_PAGE_SIZE, total[0]?.count ?? 0);
}

/**
 * The user's sessions, newest first: each began with a log-in (or a password change, which logs in again),
 * with the client address and user agent of that request.
 */
export async function userLogins(db: Queryable, userId: number, page: number): Promise<Paged<LoginLine>> {
  const { rows: total } = await db.query<{ count: number }>(
    'select count(*)::int as count from sessions where user_id = $1',
    [userId],
  );
  const { rows } = await db.query<{
    created_at: Date;
    expires_at: Date;
    revoked_at: Date | null;
    kind: string;
    active: boolean;
    ip: string | null;
    user_agent: string | null;
  }>(
    `select created_at, expires_at, revoked_at, kind, (revoked_at is null and expires_at > now()) as active,
            ip, user_agent
       from sessions where user_id = $1 order by created_at desc
      limit ${USERS_PAGE_SIZE} offset ${(page - 1) * USERS_PAGE_SIZE}`,
    [userId],
  );
  return paged(
    rows.map((row) => ({
      created_at: row.created_at.toISOString(),
      expires_at: row.expires_at.toISOString(),
      revoked_at: row.revoked_at?.toISOString() ?? null,
      kind: row.kind,
      active: row.active,
      ip: row.ip,
      user_agent: row.user_agent,
    })),
    page,
    USERS_PAGE_SIZE,
    total[0]?.count ?? 0,
  );
}

/** Turns off a user's authenticator (a lost phone, after the operator checked who is asking). */
export async function resetUserSecondFactor(
  db: Queryable,
  actor: Actor,
  userId: number,
  reason: string,
): Promise<void> {
  const { rows } = await db.query<{ enabled: boolean; pending: boolean }>(
    `select (totp_secret is not null) as enabled, (totp_pending_secret is not null) as pending
       from users where id = $1 for update`,
    [userId],
  );
  const row = rows[0];
  if (!row) throw new AppError('backoffice.user_not_found');
  if (!row.enabled && !row.pending) throw new AppError('backoffice.second_factor_not_on');
  await db.query(
    'update users set totp_secret = null, totp_pending_secret = null, totp_last_step = null where id = $1',
    [userId],
  );
  await recordChange(db, actor, {
    action: 'user.second_factor_reset',
    targetType: 'user',
    targetId: userId,
    before: { totp_enabled: row.enabled },
    after: { totp_enabled: false },
    detail: { reason },
  });
}
