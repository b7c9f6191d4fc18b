// The P2P area's work (docs/p2p.md): merchant applications, payment methods, ads, orders and their room
// (chat, images, appeal), counters, statistics from real orders, acceptor deals, and the back office's reads
// and decisions. Money moves only through engine commands (submitOrRefuse); the rows the gateway keeps
// itself are the applications, payment methods, messages, appeals and decisions. Every private read is
// scoped to the order's two parties (or an arbiter's back-office call).
import type { Command, Engine, EngineEvent, P2pAdView } from '@fairex/engine';
import { P2P_WINDOWS_MS } from '@fairex/engine';
import { p2pAmountForFiat, p2pFiatCents, p2pNextDayStart } from '@fairex/engine/calc';
import type {
  AcceptorDeal,
  Language,
  P2pAd,
  P2pAdminApplication,
  P2pAdminOrder,
  P2pConfig,
  P2pCounters,
  P2pEvidenceEntry,
  P2pFiat,
  P2pMerchantStats,
  P2pMerchantStatus,
  P2pMessage,
  P2pMethod,
  P2pOrder,
  P2pOrderEnd,
  P2pOrderStatus,
  P2pPaymentMethod,
  P2pRequirement,
  Paged,
} from '@fairex/shared';
import {
  P2P_ADMIN_PAGE_SIZE,
  P2P_DEFAULT_WINDOW_MINUTES,
  P2P_FIATS,
  P2P_METHODS,
  P2P_PAGE_SIZE,
  P2P_WINDOW_MINUTES,
  formatDecimal,
  paged,
  tryParseDecimal,
} from '@fairex/shared';
import { findUpload, readUploadFile, saveUpload, uploadIdFrom } from '../accounts/uploads.ts';
import type { StoredUpload } from '../accounts/uploads.ts';
import type { Actor } from '../admin/audit-changes.ts';
import { recordChange } from '../admin/audit-changes.ts';
import type { EngineRunner } from '../engine-runner/index.ts';
import { submitOrRefuse } from '../engine-runner/submit.ts';
import { AppError } from '../http/app-error.ts';
import type { Realtime } from '../realtime/index.ts';
import type { Queryable, Store } from '../store/index.ts';
import type { SecondFactor, SecondFactorCodes } from '../wallets/second-factor.ts';
import { p2pRefusal } from './refusals.ts';

const FIAT_SCALE = 2;
const DAY_MS = 86_400_000;

export interface P2pThresholds {
  /** Days since registration before a user may apply to be a merchant. */
  minAccountAgeDays: number;
  /** Completed P2P orders before a user may apply. */
  minCompletedTrades: number;
}

export const DEFAULT_P2P_THRESHOLDS: P2pThresholds = { minAccountAgeDays: 7, minCompletedTrades: 0 };

export interface P2pDeps {
  runner: Pick<EngineRunner<Command, EngineEvent, Engine>, 'submit' | 'engine'>;
  store: Store;
  dataDir: string;
  secondFactor: SecondFactor;
  realtime: Pick<Realtime, 'toUser'>;
  thresholds: P2pThresholds;
  /** P2P_WINDOW_SECONDS: test and demo runs give every new ad this short window (0: off). */
  windowSecondsOverride?: number;
  now?: () => number;
}

type OrderRow = {
  order_id: string;
  ad_id: string;
  buyer_id: number;
  seller_id: number;
  maker_id: number;
  currency_id: number;
  fiat: string;
  price_cents: string;
  amount: string;
  fiat_cents: string;
  buyer_fee: string;
  seller_fee: string;
  method_id: number;
  acceptor: boolean;
  created_ms: string;
  deadline_ms: string;
  paid_ms: string | null;
  appealed_ms: string | null;
  ended_ms: string | null;
  final_status: 'completed' | 'cancelled' | null;
  order_end: P2pOrderEnd | null;
  terms: string | null;
  ad_method_ids: number[] | null;
};

const ORDER_SELECT = `
  select o.order_id::text, o.ad_id::text, o.buyer_id, o.seller_id, o.maker_id, o.currency_id, o.fiat,
         o.price_cents::text, o.amount::text, o.fiat_cents::text, o.buyer_fee::text, o.seller_fee::text,
         o.method_id, o.acceptor, o.created_ms::text, o.deadline_ms::text,
         (select s.time_ms::text from p2p_order_steps s where s.order_id = o.order_id and s.status = 'paid') as paid_ms,
         (select s.time_ms::text from p2p_order_steps s where s.order_id = o.order_id and s.status = 'appealed') as appealed_ms,
         e.time_ms::text as ended_ms, e.status as final_status, e.order_end,
         (select v.terms from p2p_ad_versions v where v.ad_id = o.ad_id order by v.seq desc limit 1) as terms,
         (select v.method_ids::int[] from p2p_ad_versions v where v.ad_id = o.ad_id order by v.seq desc limit 1) as ad_method_ids
    from p2p_orders o
    left join p2p_order_steps e on e.order_id = o.order_id and e.status in ('completed', 'cancelled')`;

function statusOf(row: OrderRow): P2pOrderStatus {
  if (row.final_status !== null) return row.final_status;
  if (row.appealed_ms !== null) return 'appealed';
  if (row.paid_ms !== null) return 'paid';
  return 'unpaid';
}

type MethodRow = {
  id: number;
  user_id: number;
  method: P2pMethod;
  holder_name: string;
  account: string;
  bank_name: string;
  qr_upload_id: string | null;
  active: boolean;
};

function methodView(row: MethodRow): P2pPaymentMethod {
  return {
    id: row.id,
    method: row.method,
    holder_name: row.holder_name,
    account: row.account,
    bank_name: row.bank_name,
    qr_image: row.qr_upload_id === null ? null : p2pImageAddress(row.qr_upload_id),
    active: row.active,
  };
}

export function p2pImageAddress(uploadId: string): string {
  return `/api/p2p/upload/image?id=${uploadId}`;
}

function cents(value: bigint): string {
  return formatDecimal(value, FIAT_SCALE);
}

function parseFiat(text: string): bigint {
  const parsed = tryParseDecimal(text, FIAT_SCALE, { min: 1n });
  if (!parsed.ok) throw new AppError('validation.decimal_scale', { scale: FIAT_SCALE });
  return parsed.value;
}

/** A percent with two decimals (-20..20) as basis points. */
function parsePercentBp(text: string): number {
  const parsed = tryParseDecimal(text, 2, { allowNegative: true, min: -2_000n, max: 2_000n });
  if (!parsed.ok) throw new AppError('p2p.float_range');
  return Number(parsed.value);
}

function percentText(bp: bigint | number): string {
  return formatDecimal(BigInt(bp), 2);
}

/** A time as the specs show it, in Asia/Shanghai (UTC+8, no daylight saving): "2026-01-01 08:00:00". */
function timeText(ms: number): string {
  return new Date(ms + 8 * 3_600_000).toISOString().replace('T', ' ').slice(0, 19);
}

export class P2pService {
  private readonly deps: P2pDeps;
  private readonly now: () => number;

  constructor(deps: P2pDeps) {
    this.deps = deps;
    this.now = deps.now ?? (() => Date.now());
  }

  private get engine(): Engine {
    return this.deps.runner.engine;
  }

  private get db(): Store {
    return this.deps.store;
  }

  private scaleOf(currencyId: number): number {
    const currency = this.engine.ledger.currency(currencyId);
    if (currency === undefined) throw new AppError('p2p.unknown_asset');
    return currency.scale;
  }

  private submit<R>(command: Command) {
    return submitOrRefuse<R>(this.deps.runner, command, { refusal: p2pRefusal });
  }

  // ------------------------------------------------------------------------------------------ config

  config(): P2pConfig {
    const config = this.engine.p2p.config();
    const references = config.references.map((reference) => ({
      currency_id: reference.currencyId,
      fiat: reference.fiat as P2pFiat,
      price: cents(reference.priceCents),
      time: null,
    }));
    return {
      assets: this.engine.ledger.currencies().map((currency) => ({
        currency_id: currency.currencyId,
        name: currency.code,
        scale: currency.scale,
      })),
      fiats: [...P2P_FIATS],
      methods: [...P2P_METHODS],
      window_minutes: P2P_WINDOW_MINUTES,
      default_window_minutes: P2P_DEFAULT_WINDOW_MINUTES,
      appeal_wait_minutes: Math.round(config.appealWaitMs / 60_000),
      maker_fee_bp: config.makerFeeBp,
      taker_fee_bp: config.takerFeeBp,
      cancellations_per_day: config.cancellationsPerDay,
      references,
    };
  }

  // --------------------------------------------------------------------------------------- merchants

  private async approvedRealName(db: Queryable, userId: number): Promise<string | null> {
    const { rows } = await db.query<{ name: string }>(
      `select name from real_name_submissions where user_id = $1 and status = 'approved' order by id desc limit 1`,
      [userId],
    );
    return rows[0]?.name ?? null;
  }

  async requirements(db: Queryable, userId: number): Promise<P2pRequirement[]> {
    const { rows } = await db.query<{ review_status: number; created_at: Date }>(
      'select review_status, created_at from users where id = $1',
      [userId],
    );
    const user = rows[0];
    if (user === undefined) throw new AppError('auth.login_required', {}, '999');
    const ageDays = Math.floor((this.now() - user.created_at.getTime()) / DAY_MS);
    const completed = await this.completedCount(db, userId);
    const { minAccountAgeDays, minCompletedTrades } = this.deps.thresholds;
    return [
      { key: 'realName', needed: 1, have: user.review_status === 2 ? 1 : 0, met: user.review_status === 2 },
      { key: 'accountAge', needed: minAccountAgeDays, have: ageDays, met: ageDays >= minAccountAgeDays },
      {
        key: 'completedTrades',
        needed: minCompletedTrades,
        have: completed,
        met: completed >= minCompletedTrades,
      },
    ];
  }

  private async completedCount(db: Queryable, userId: number): Promise<number> {
    const { rows } = await db.query<{ count: number }>(
      `select count(*)::int as count from p2p_orders o
         join p2p_order_steps s on s.order_id = o.order_id and s.status = 'completed'
        where o.buyer_id = $1 or o.seller_id = $1`,
      [userId],
    );
    return rows[0]?.count ?? 0;
  }

  async merchantStatus(userId: number): Promise<P2pMerchantStatus> {
    const requirements = await this.requirements(this.db, userId);
    const { rows } = await this.db.query<{
      id: number;
      nickname: string;
      status: 'pending' | 'approved' | 'rejected';
      reason: string;
      created_ms: string;
      reviewed_ms: string | null;
    }>(
      `select id, nickname, status, reason, created_ms::text, reviewed_ms::text from p2p_applications
        where user_id = $1 order by id desc limit 1`,
      [userId],
    );
    const application = rows[0];
    const isSeller = this.engine.p2p.merchant(userId) !== undefined;
    return {
      is_seller: isSeller ? 1 : 0,
      application:
        application === undefined
          ? null
          : {
              id: application.id,
              nickname: application.nickname,
              status: application.status,
              reason: application.reason,
              created_time: Number(application.created_ms),
              reviewed_time: application.reviewed_ms === null ? null : Number(application.reviewed_ms),
            },
      requirements,
      can_apply: !isSeller && application?.status !== 'pending' && requirements.every((r) => r.met),
    };
  }

  async apply(
    userId: number,
    input: { nickname: string; note?: string | undefined },
  ): Promise<P2pMerchantStatus> {
    const status = await this.merchantStatus(userId);
    if (status.is_seller === 1) throw new AppError('p2p.already_merchant');
    if (status.application?.status === 'pending') throw new AppError('p2p.application_pending');
    if (!status.requirements.every((r) => r.met)) throw new AppError('p2p.requirements_not_met');
    try {
      await this.db.query(
        `insert into p2p_applications (user_id, nickname, note, created_ms) values ($1, $2, $3, $4)`,
        [userId, input.nickname, input.note ?? '', this.now()],
      );
    } catch (error) {
      if ((error as { code?: string }).code === '23505') throw new AppError('p2p.application_pending');
      throw error;
    }
    return this.merchantStatus(userId);
  }

  private async nicknames(userIds: readonly number[]): Promise<Map<number, string>> {
    const names = new Map<number, string>();
    if (userIds.length === 0) return names;
    const { rows } = await this.db.query<{ id: number; account: string; nickname: string | null }>(
      `select u.id, u.account,
              (select a.nickname from p2p_applications a where a.user_id = u.id and a.status = 'approved'
                order by a.id desc limit 1) as nickname
         from users u where u.id = any($1::int[])`,
      [[...new Set(userIds)]],
    );
    for (const row of rows) names.set(row.id, row.nickname ?? maskAccount(row.account));
    return names;
  }

  async merchantStats(userId: number): Promise<P2pMerchantStats> {
    return (await this.statsOf([userId])).get(userId) as P2pMerchantStats;
  }

  /** Completed orders, 30-day completion rate and average release time, from the recorded orders. */
  private async statsOf(userIds: readonly number[]): Promise<Map<number, P2pMerchantStats>> {
    const since = this.now() - 30 * DAY_MS;
    const unique = [...new Set(userIds)];
    const { rows } = await this.db.query<{
      user_id: number;
      completed: number;
      completed_30d: number;
      cancelled_30d: number;
      release_ms: string | null;
    }>(
      `select u.id as user_id,
              (select count(*)::int from p2p_orders o join p2p_order_steps s on s.order_id = o.order_id
                 and s.status = 'completed' where o.maker_id = u.id) as completed,
              (select count(*)::int from p2p_orders o join p2p_order_steps s on s.order_id = o.order_id
                 and s.status = 'completed' where o.maker_id = u.id and o.created_ms >= $2) as completed_30d,
              (select count(*)::int from p2p_orders o join p2p_order_steps s on s.order_id = o.order_id
                 and s.status = 'cancelled' where o.maker_id = u.id and o.created_ms >= $2) as cancelled_30d,
              (select avg(s.time_ms - p.time_ms)::bigint::text from p2p_orders o
                 join p2p_order_steps s on s.order_id = o.order_id and s.status = 'completed' and s.order_end = 'released'
                 join p2p_order_steps p on p.order_id = o.order_id and p.status = 'paid'
                where o.seller_id = u.id and o.created_ms >= $2) as release_ms
         from unnest($1::int[]) as u(id)`,
      [unique, since],
    );
    const names = await this.nicknames(unique);
    const stats = new Map<number, P2pMerchantStats>();
    for (const row of rows) {
      const total = row.completed_30d + row.cancelled_30d;
      stats.set(row.user_id, {
        user_id: row.user_id,
        nickname: names.get(row.user_id) ?? '',
        completed: row.completed,
        completion_rate_30d:
          total === 0 ? null : formatDecimal((BigInt(row.completed_30d) * 10_000n) / BigInt(total), 2),
        avg_release_seconds: row.release_ms === null ? null : Math.round(Number(row.release_ms) / 1000),
        orders_30d: total,
      });
    }
    return stats;
  }

  // --------------------------------------------------------------------------------- payment methods

  async methods(userId: number): Promise<P2pPaymentMethod[]> {
    const { rows } = await this.db.query<MethodRow>(
      `select id, user_id, method, holder_name, account, bank_name, qr_upload_id, active
         from p2p_payment_methods where user_id = $1 and active order by id`,
      [userId],
    );
    return rows.map(methodView);
  }

  private async checkMethodInput(
    userId: number,
    input: { method: P2pMethod; holder_name: string; qr_image?: string | undefined },
  ): Promise<string | null> {
    const realName = await this.approvedRealName(this.db, userId);
    if (realName === null) throw new AppError('p2p.real_name_required');
    if (realName.trim() !== input.holder_name.trim()) throw new AppError('p2p.holder_mismatch');
    if (input.qr_image === undefined) return null;
    const id = uploadIdFrom(input.qr_image);
    const upload = id === null ? null : await findUpload(this.db, id);
    if (upload === null || upload.user_id !== userId) throw new AppError('upload.not_found');
    return upload.id;
  }

  async addMethod(
    userId: number,
    input: {
      method: P2pMethod;
      holder_name: string;
      account: string;
      bank_name?: string | undefined;
      qr_image?: string | undefined;
    },
  ): Promise<P2pPaymentMethod> {
    const qr = await this.checkMethodInput(userId, input);
    const { rows: count } = await this.db.query<{ count: number }>(
      'select count(*)::int as count from p2p_payment_methods where user_id = $1 and active',
      [userId],
    );
    if ((count[0]?.count ?? 0) >= 10) throw new AppError('p2p.too_many');
    const { rows } = await this.db.query<MethodRow>(
      `insert into p2p_payment_methods (user_id, method, holder_name, account, bank_name, qr_upload_id, created_ms)
       values ($1, $2, $3, $4, $5, $6, $7)
       returning id, user_id, method, holder_name, account, bank_name, qr_upload_id, active`,
      [userId, input.method, input.holder_name, input.account, input.bank_name ?? '', qr, this.now()],
    );
    return methodView(rows[0] as MethodRow);
  }

  async editMethod(
    userId: number,
    input: {
      id: number;
      method: P2pMethod;
      holder_name: string;
      account: string;
      bank_name?: string | undefined;
      qr_image?: string | undefined;
    },
  ): Promise<P2pPaymentMethod> {
    const qr = await this.checkMethodInput(userId, input);
    // A method used by orders keeps its row: the edit retires it and adds the new one.
    const { rowCount } = await this.db.query(
      'update p2p_payment_methods set active = false where id = $1 and user_id = $2 and active',
      [input.id, userId],
    );
    if (rowCount !== 1) throw new AppError('p2p.method_not_found');
    const { rows } = await this.db.query<MethodRow>(
      `insert into p2p_payment_methods (user_id, method, holder_name, account, bank_name, qr_upload_id, created_ms)
       values ($1, $2, $3, $4, $5, $6, $7)
       returning id, user_id, method, holder_name, account, bank_name, qr_upload_id, active`,
      [userId, input.method, input.holder_name, input.account, input.bank_name ?? '', qr, this.now()],
    );
    return methodView(rows[0] as MethodRow);
  }

  async deleteMethod(userId: number, id: number): Promise<void> {
    const { rowCount } = await this.db.query(
      'update p2p_payment_methods set active = false where id = $1 and user_id = $2 and active',
      [id, userId],
    );
    if (rowCount !== 1) throw new AppError('p2p.method_not_found');
  }

  private async methodsById(ids: readonly number[]): Promise<Map<number, MethodRow>> {
    const found = new Map<number, MethodRow>();
    if (ids.length === 0) return found;
    const { rows } = await this.db.query<MethodRow>(
      `select id, user_id, method, holder_name, account, bank_name, qr_upload_id, active
         from p2p_payment_methods where id = any($1::int[])`,
      [[...new Set(ids)]],
    );
    for (const row of rows) found.set(row.id, row);
    return found;
  }

  // --------------------------------------------------------------------------------------------- ads

  private adView(
    ad: Omit<P2pAdView, 'currentPriceCents' | 'held' | 'status'> & {
      status: 'online' | 'paused' | 'closed';
      currentPriceCents: bigint;
      createdMs: number;
    },
    methods: Map<number, MethodRow>,
    stats: Map<number, P2pMerchantStats>,
  ): P2pAd {
    const scale = this.scaleOf(ad.currencyId);
    const price = ad.currentPriceCents;
    const leftFiat = price === 0n ? 0n : p2pFiatCents({ amount: ad.remaining, priceCents: price, scale });
    const maxFiat = leftFiat < ad.maxFiatCents ? leftFiat : ad.maxFiatCents;
    return {
      id: ad.adId,
      side: ad.side,
      currency_id: ad.currencyId,
      currency_name: this.engine.ledger.currency(ad.currencyId)?.code ?? '',
      fiat: ad.fiat as P2pFiat,
      price_type: ad.floatBp === null ? 'fixed' : 'floating',
      price: cents(price),
      float_percent: ad.floatBp === null ? null : percentText(ad.floatBp),
      total: formatDecimal(ad.total, scale),
      available: formatDecimal(ad.remaining, scale),
      min_fiat: cents(ad.minFiatCents),
      max_fiat: cents(maxFiat),
      methods: [
        ...new Set(
          ad.methodIds.flatMap((id) => {
            const method = methods.get(id);
            return method === undefined ? [] : [method.method];
          }),
        ),
      ],
      window_minutes: ad.windowMs / 60_000,
      terms: ad.terms,
      status: ad.status,
      merchant: stats.get(ad.userId) ?? {
        user_id: ad.userId,
        nickname: '',
        completed: 0,
        completion_rate_30d: null,
        avg_release_seconds: null,
        orders_30d: 0,
      },
      acceptor: ad.acceptor,
      created_time: ad.createdMs,
    };
  }

  private async adCreatedTimes(adIds: readonly number[]): Promise<Map<number, number>> {
    const times = new Map<number, number>();
    if (adIds.length === 0) return times;
    const { rows } = await this.db.query<{ ad_id: string; time_ms: string }>(
      `select ad_id::text, min(time_ms)::text as time_ms from p2p_ad_versions where ad_id = any($1::bigint[]) group by ad_id`,
      [adIds],
    );
    for (const row of rows) times.set(Number(row.ad_id), Number(row.time_ms));
    return times;
  }

  private async viewsOfLive(ads: readonly P2pAdView[]): Promise<P2pAd[]> {
    const methods = await this.methodsById(ads.flatMap((ad) => ad.methodIds));
    const stats = await this.statsOf(ads.map((ad) => ad.userId));
    const created = await this.adCreatedTimes(ads.map((ad) => ad.adId));
    return ads.map((ad) => this.adView({ ...ad, createdMs: created.get(ad.adId) ?? 0 }, methods, stats));
  }

  /** The ad book: online ads of the other side, best price first, filtered by method and amount. */
  async adBook(input: {
    side: 'buy' | 'sell';
    currency_id: number;
    fiat: P2pFiat;
    method?: P2pMethod | undefined;
    amount?: string | undefined;
    page?: number | undefined;
  }): Promise<Paged<P2pAd>> {
    const adSide = input.side === 'buy' ? 'sell' : 'buy';
    const fiatCents = input.amount === undefined ? undefined : parseFiat(input.amount);
    let ads = this.engine.p2p
      .ads()
      .filter(
        (ad) =>
          ad.status === 'online' &&
          ad.side === adSide &&
          ad.currencyId === input.currency_id &&
          ad.fiat === input.fiat &&
          ad.remaining > 0n &&
          ad.currentPriceCents > 0n,
      );
    if (fiatCents !== undefined) {
      ads = ads.filter((ad) => {
        if (fiatCents < ad.minFiatCents || fiatCents > ad.maxFiatCents) return false;
        const scale = this.scaleOf(ad.currencyId);
        return p2pAmountForFiat({ fiatCents, priceCents: ad.currentPriceCents, scale }) <= ad.remaining;
      });
    }
    if (input.method !== undefined) {
      const methods = await this.methodsById(ads.flatMap((ad) => ad.methodIds));
      ads = ads.filter((ad) => ad.methodIds.some((id) => methods.get(id)?.method === input.method));
    }
    ads.sort((a, b) => {
      const byPrice =
        adSide === 'sell'
          ? a.currentPriceCents - b.currentPriceCents
          : b.currentPriceCents - a.currentPriceCents;
      return byPrice < 0n ? -1 : byPrice > 0n ? 1 : a.adId - b.adId;
    });
    const page = input.page ?? 1;
    const slice = ads.slice((page - 1) * P2P_PAGE_SIZE, page * P2P_PAGE_SIZE);
    return paged(await this.viewsOfLive(slice), page, P2P_PAGE_SIZE, ads.length);
  }

  async adDetail(adId: number): Promise<P2pAd> {
    const live = this.engine.p2p.ad(adId);
    if (live !== undefined) return (await this.viewsOfLive([live]))[0] as P2pAd;
    const closed = await this.closedAds({ adId });
    const ad = closed[0];
    if (ad === undefined) throw new AppError('p2p.ad_not_found');
    return ad;
  }

  /** Ads no longer in the engine (closed), from their last recorded version. */
  private async closedAds(filter: { adId?: number; userId?: number }): Promise<P2pAd[]> {
    const { rows } = await this.db.query<{
      ad_id: string;
      user_id: number;
      side: 'buy' | 'sell';
      currency_id: number;
      fiat: string;
      price_cents: string;
      float_bp: number | null;
      min_fiat_cents: string;
      max_fiat_cents: string;
      window_ms: number;
      method_ids: number[];
      terms: string;
      total: string;
      remaining: string;
      acceptor: boolean;
      created_ms: string;
    }>(
      `select distinct on (v.ad_id) v.ad_id::text, v.user_id, v.side, v.currency_id, v.fiat, v.price_cents::text,
              v.float_bp, v.min_fiat_cents::text, v.max_fiat_cents::text, v.window_ms, v.method_ids::int[] as method_ids, v.terms,
              v.total::text, v.remaining::text, v.acceptor,
              (select min(f.time_ms) from p2p_ad_versions f where f.ad_id = v.ad_id)::text as created_ms
         from p2p_ad_versions v
        where ($1::bigint is null or v.ad_id = $1) and ($2::int is null or v.user_id = $2)
          and exists (select 1 from p2p_ad_versions c where c.ad_id = v.ad_id and c.status = 'closed')
        order by v.ad_id desc, v.seq desc
        limit 200`,
      [filter.adId ?? null, filter.userId ?? null],
    );
    const methods = await this.methodsById(rows.flatMap((row) => row.method_ids));
    const stats = await this.statsOf(rows.map((row) => row.user_id));
    return rows.map((row) =>
      this.adView(
        {
          adId: Number(row.ad_id),
          userId: row.user_id,
          side: row.side,
          currencyId: row.currency_id,
          fiat: row.fiat,
          acceptor: row.acceptor,
          priceCents: BigInt(row.price_cents),
          floatBp: row.float_bp,
          minFiatCents: BigInt(row.min_fiat_cents),
          maxFiatCents: BigInt(row.max_fiat_cents),
          windowMs: row.window_ms,
          methodIds: row.method_ids,
          terms: row.terms,
          total: BigInt(row.total),
          remaining: BigInt(row.remaining),
          status: 'closed',
          currentPriceCents: BigInt(row.price_cents),
          createdMs: Number(row.created_ms),
        },
        methods,
        stats,
      ),
    );
  }

  async myAds(
    userId: number,
    input: { status?: 'online' | 'paused' | 'closed' | undefined; page?: number | undefined },
  ): Promise<Paged<P2pAd>> {
    const live =
      input.status === 'closed'
        ? []
        : await this.viewsOfLive(
            this.engine.p2p
              .ads()
              .filter(
                (ad) => ad.userId === userId && (input.status === undefined || ad.status === input.status),
              ),
          );
    const closed =
      input.status === undefined || input.status === 'closed' ? await this.closedAds({ userId }) : [];
    const all = [...live.reverse(), ...closed];
    const page = input.page ?? 1;
    return paged(
      all.slice((page - 1) * P2P_PAGE_SIZE, page * P2P_PAGE_SIZE),
      page,
      P2P_PAGE_SIZE,
      all.length,
    );
  }

  private async adTerms(
    userId: number,
    input: {
      price_type: 'fixed' | 'floating';
      price?: string | undefined;
      float_percent?: string | undefined;
      min_fiat: string;
      max_fiat: string;
      method_ids: number[];
      window_minutes?: number | undefined;
      terms?: string | undefined;
    },
  ) {
    let floatBp: number | null = null;
    if (input.price_type === 'floating') {
      if (input.float_percent === undefined) throw new AppError('p2p.float_range');
      floatBp = parsePercentBp(input.float_percent);
    }
    if (input.price_type === 'fixed' && input.price === undefined) throw new AppError('p2p.price_required');
    const priceCents = floatBp === null ? parseFiat(input.price as string) : 0n;
    const minFiatCents = parseFiat(input.min_fiat);
    const maxFiatCents = parseFiat(input.max_fiat);
    if (minFiatCents > maxFiatCents) throw new AppError('p2p.limits_order');
    const methods = await this.methodsById(input.method_ids);
    for (const id of input.method_ids) {
      const method = methods.get(id);
      if (method === undefined || method.user_id !== userId || !method.active)
        throw new AppError('p2p.method_not_found');
    }
    const override = this.deps.windowSecondsOverride ?? 0;
    const windowMs =
      override > 0 ? override * 1000 : (input.window_minutes ?? P2P_DEFAULT_WINDOW_MINUTES) * 60_000;
    if (override === 0 && !P2P_WINDOWS_MS.includes(windowMs)) throw new AppError('p2p.refused');
    return {
      priceCents,
      floatBp,
      minFiatCents,
      maxFiatCents,
      windowMs,
      methodIds: [...new Set(input.method_ids)],
      terms: input.terms ?? '',
    };
  }

  async createAd(
    userId: number,
    input: Parameters<P2pService['adTerms']>[1] & {
      side: 'buy' | 'sell';
      currency_id: number;
      fiat: P2pFiat;
      total: string;
    },
  ): Promise<P2pAd> {
    if (this.engine.p2p.merchant(userId) === undefined) throw new AppError('p2p.not_merchant');
    const scale = this.scaleOf(input.currency_id);
    const total = tryParseDecimal(input.total, scale, { min: 1n });
    if (!total.ok) throw new AppError('validation.decimal_scale', { scale });
    const terms = await this.adTerms(userId, input);
    const { reply } = await this.submit<{ adId: number }>({
      type: 'p2pPostAd',
      userId,
      side: input.side,
      currencyId: input.currency_id,
      fiat: input.fiat,
      total: total.value,
      ...terms,
    });
    return this.adDetail(reply.adId);
  }

  async editAd(userId: number, input: Parameters<P2pService['adTerms']>[1] & { id: number }): Promise<P2pAd> {
    const ad = this.engine.p2p.ad(input.id);
    if (ad === undefined || ad.userId !== userId) throw new AppError('p2p.ad_not_found');
    const terms = await this.adTerms(userId, input);
    await this.submit({ type: 'p2pEditAd', userId, adId: input.id, ...terms });
    return this.adDetail(input.id);
  }

  async setAdStatus(userId: number, adId: number, status: 'online' | 'paused' | 'closed'): Promise<P2pAd> {
    const ad = this.engine.p2p.ad(adId);
    if (ad === undefined || ad.userId !== userId) throw new AppError('p2p.ad_not_found');
    await this.submit({ type: 'p2pSetAdStatus', userId, adId, status });
    return this.adDetail(adId);
  }

  // ------------------------------------------------------------------------------------------ orders

  async createOrder(
    userId: number,
    input: {
      ad_id: number;
      fiat_amount?: string | undefined;
      amount?: string | undefined;
      method_id?: number | undefined;
    },
  ): Promise<P2pOrder> {
    const ad = this.engine.p2p.ad(input.ad_id);
    if (ad === undefined) throw new AppError('p2p.ad_not_found');
    const scale = this.scaleOf(ad.currencyId);
    if ((input.fiat_amount === undefined) === (input.amount === undefined))
      throw new AppError('p2p.amount_or_fiat');
    let amount: bigint;
    if (input.amount !== undefined) {
      const parsed = tryParseDecimal(input.amount, scale, { min: 1n });
      if (!parsed.ok) throw new AppError('validation.decimal_scale', { scale });
      amount = parsed.value;
    } else {
      if (ad.currentPriceCents === 0n) throw new AppError('p2p.no_reference');
      amount = p2pAmountForFiat({
        fiatCents: parseFiat(input.fiat_amount as string),
        priceCents: ad.currentPriceCents,
        scale,
      });
      if (amount === 0n) throw new AppError('p2p.amount_out_of_limits', this.limitsOf(ad));
    }
    let methodId = 0;
    if (ad.side === 'buy') {
      // Selling to a buy ad: the buyer pays to one of the taker's own methods.
      if (input.method_id === undefined) throw new AppError('p2p.method_required');
      const method = (await this.methodsById([input.method_id])).get(input.method_id);
      if (method === undefined || method.user_id !== userId || !method.active)
        throw new AppError('p2p.method_not_found');
      methodId = method.id;
    }
    const { reply } = await submitOrRefuse<{ orderId: number }>(
      this.deps.runner,
      { type: 'p2pTakeAd', userId, adId: ad.adId, amount, methodId },
      {
        refusal: (code) => {
          const refusal = p2pRefusal(code);
          if (refusal.key === 'p2p.amount_out_of_limits') return { ...refusal, params: this.limitsOf(ad) };
          if (refusal.key === 'p2p.restricted')
            return { ...refusal, params: { time: timeText(p2pNextDayStart(this.now())) } };
          return refusal;
        },
      },
    );
    return this.order(userId, reply.orderId);
  }

  private limitsOf(ad: P2pAdView): { min: string; max: string } {
    return { min: cents(ad.minFiatCents), max: cents(ad.maxFiatCents) };
  }

  private async orderRow(orderId: number): Promise<OrderRow | undefined> {
    const { rows } = await this.db.query<OrderRow>(`${ORDER_SELECT} where o.order_id = $1`, [orderId]);
    return rows[0];
  }

  /** An order the user is a party to; someone else's order is answered like one that does not exist. */
  private async partyRow(userId: number, orderId: number): Promise<OrderRow> {
    const row = await this.orderRow(orderId);
    if (row === undefined || (row.buyer_id !== userId && row.seller_id !== userId))
      throw new AppError('p2p.order_not_found');
    return row;
  }

  async order(userId: number, orderId: number): Promise<P2pOrder> {
    const row = await this.partyRow(userId, orderId);
    return (await this.orderViews(userId, [row]))[0] as P2pOrder;
  }

  private async orderViews(viewer: number | null, rows: readonly OrderRow[]): Promise<P2pOrder[]> {
    const names = await this.nicknames(rows.flatMap((row) => [row.buyer_id, row.seller_id]));
    // The seller's payment details: the ad's methods for a sell ad, the taker's chosen one for a buy ad.
    const methodIds = rows.flatMap((row) =>
      row.method_id > 0 ? [row.method_id] : (row.ad_method_ids ?? []),
    );
    const methods = await this.methodsById(methodIds);
    const appealWaitMs = this.engine.p2p.config().appealWaitMs;
    const unread =
      viewer === null
        ? new Map<string, number>()
        : await this.unreadCounts(
            viewer,
            rows.map((row) => row.order_id),
          );
    return rows.map((row) => {
      const scale = this.scaleOf(row.currency_id);
      const status = statusOf(row);
      const mySide = viewer === row.seller_id ? 'sell' : 'buy';
      const open = status !== 'completed' && status !== 'cancelled';
      const ids = row.method_id > 0 ? [row.method_id] : (row.ad_method_ids ?? []);
      return {
        id: Number(row.order_id),
        ad_id: Number(row.ad_id),
        my_side: mySide,
        buyer: { user_id: row.buyer_id, nickname: names.get(row.buyer_id) ?? '' },
        seller: { user_id: row.seller_id, nickname: names.get(row.seller_id) ?? '' },
        currency_id: row.currency_id,
        currency_name: this.engine.ledger.currency(row.currency_id)?.code ?? '',
        fiat: row.fiat as P2pFiat,
        price: cents(BigInt(row.price_cents)),
        amount: formatDecimal(BigInt(row.amount), scale),
        fiat_amount: cents(BigInt(row.fiat_cents)),
        fee: formatDecimal(BigInt(mySide === 'sell' ? row.seller_fee : row.buyer_fee), scale),
        status,
        end: row.order_end,
        created_time: Number(row.created_ms),
        deadline_time: Number(row.deadline_ms),
        paid_time: row.paid_ms === null ? null : Number(row.paid_ms),
        appeal_after_time: row.paid_ms === null ? null : Number(row.paid_ms) + appealWaitMs,
        ended_time: row.ended_ms === null ? null : Number(row.ended_ms),
        acceptor: row.acceptor,
        payment_methods: open
          ? ids.flatMap((id) => {
              const method = methods.get(id);
              return method === undefined ? [] : [methodView(method)];
            })
          : [],
        terms: row.terms ?? '',
        unread: unread.get(row.order_id) ?? 0,
      };
    });
  }

  private async unreadCounts(viewer: number, orderIds: readonly string[]): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    if (orderIds.length === 0) return counts;
    const { rows } = await this.db.query<{ order_id: string; count: number }>(
      `select m.order_id::text, count(*)::int as count from p2p_messages m
        where m.order_id = any($1::bigint[]) and m.sender <> $2
          and m.id > coalesce((select r.last_id from p2p_message_reads r where r.order_id = m.order_id and r.user_id = $2), 0)
        group by m.order_id`,
      [orderIds, viewer],
    );
    for (const row of rows) counts.set(row.order_id, row.count);
    return counts;
  }

  async orders(
    userId: number,
    input: {
      status?: 'open' | 'completed' | 'cancelled' | 'appealed' | undefined;
      page?: number | undefined;
    },
  ): Promise<Paged<P2pOrder>> {
    const page = input.page ?? 1;
    // Fixed fragments per filter value (no input is ever spliced into the statement).
    const conditions = {
      open: `and e.status is null`,
      completed: `and e.status = 'completed'`,
      cancelled: `and e.status = 'cancelled'`,
      appealed: `and e.status is null and exists (select 1 from p2p_order_steps a where a.order_id = o.order_id and a.status = 'appealed')`,
    } as const;
    const condition = input.status === undefined ? '' : conditions[input.status];
    const where = `where (o.buyer_id = $1 or o.seller_id = $1) ${condition}`;
    const { rows } = await this.db.query<OrderRow>(
      `${ORDER_SELECT} ${where} order by o.order_id desc limit $2 offset $3`,
      [userId, P2P_PAGE_SIZE, (page - 1) * P2P_PAGE_SIZE],
    );
    const { rows: count } = await this.db.query<{ count: number }>(
      `select count(*)::int as count from p2p_orders o
         left join p2p_order_steps e on e.order_id = o.order_id and e.status in ('completed', 'cancelled') ${where}`,
      [userId],
    );
    return paged(await this.orderViews(userId, rows), page, P2P_PAGE_SIZE, count[0]?.count ?? 0);
  }

  private async act(
    userId: number,
    orderId: number,
    type: 'p2pMarkPaid' | 'p2pRelease' | 'p2pCancel' | 'p2pAppeal' | 'p2pReject',
  ): Promise<void> {
    await submitOrRefuse(
      this.deps.runner,
      { type, userId, orderId },
      {
        refusal: (code) => {
          const refusal = p2pRefusal(code);
          if (refusal.key === 'p2p.appeal_too_early')
            return {
              ...refusal,
              params: { minutes: Math.round(this.engine.p2p.config().appealWaitMs / 60_000) },
            };
          return refusal;
        },
      },
    );
  }

  async markPaid(userId: number, orderId: number): Promise<P2pOrder> {
    await this.partyRow(userId, orderId);
    await this.act(userId, orderId, 'p2pMarkPaid');
    return this.order(userId, orderId);
  }

  /** An e-mail (or SMS) code for a release, for accounts without an authenticator. */
  sendReleaseCode(userId: number, ip: string, lang: Language) {
    return this.deps.secondFactor.send(userId, ip, lang);
  }

  async release(userId: number, orderId: number, codes: SecondFactorCodes): Promise<P2pOrder> {
    const row = await this.partyRow(userId, orderId);
    if (row.seller_id !== userId) throw new AppError('p2p.order_not_found');
    if (this.engine.p2p.order(orderId) === undefined) throw new AppError('p2p.wrong_state');
    await this.deps.secondFactor.verify(userId, codes);
    await this.act(userId, orderId, 'p2pRelease');
    return this.order(userId, orderId);
  }

  async cancel(userId: number, orderId: number): Promise<P2pOrder> {
    await this.partyRow(userId, orderId);
    await this.act(userId, orderId, 'p2pCancel');
    return this.order(userId, orderId);
  }

  async appeal(
    userId: number,
    input: { id: number; reason: string; description: string; evidence?: string[] | undefined },
  ): Promise<P2pOrder> {
    await this.partyRow(userId, input.id);
    const evidence: string[] = [];
    for (const address of input.evidence ?? []) {
      const id = uploadIdFrom(address);
      const upload = id === null ? null : await findUpload(this.db, id);
      if (upload === null || upload.user_id !== userId) throw new AppError('upload.not_found');
      evidence.push(upload.id);
    }
    await this.act(userId, input.id, 'p2pAppeal');
    await this.db.query(
      `insert into p2p_appeals (order_id, user_id, reason, description, evidence, created_ms)
       values ($1, $2, $3, $4, $5, $6) on conflict (order_id) do nothing`,
      [input.id, userId, input.reason, input.description, evidence, this.now()],
    );
    return this.order(userId, input.id);
  }

  // -------------------------------------------------------------------------------------------- chat

  async messages(userId: number, orderId: number, after: number): Promise<P2pMessage[]> {
    await this.partyRow(userId, orderId);
    const messages = await this.messageRows(orderId, after);
    const last = messages.at(-1);
    if (last !== undefined)
      await this.db.query(
        `insert into p2p_message_reads (order_id, user_id, last_id) values ($1, $2, $3)
         on conflict (order_id, user_id) do update set last_id = greatest(p2p_message_reads.last_id, excluded.last_id)`,
        [orderId, userId, last.id],
      );
    return messages;
  }

  private async messageRows(orderId: number, after: number): Promise<P2pMessage[]> {
    const { rows } = await this.db.query<{
      id: string;
      sender: number;
      body: string;
      upload_id: string | null;
      created_ms: string;
    }>(
      `select id::text, sender, body, upload_id, created_ms::text from p2p_messages
        where order_id = $1 and id > $2 order by id limit 500`,
      [orderId, after],
    );
    return rows.map((row) => ({
      id: Number(row.id),
      order_id: orderId,
      from: row.sender,
      text: row.body,
      image: row.upload_id === null ? null : p2pImageAddress(row.upload_id),
      created_time: Number(row.created_ms),
    }));
  }

  async sendMessage(
    userId: number,
    input: { id: number; text?: string | undefined; image?: string | undefined },
  ): Promise<P2pMessage> {
    const row = await this.partyRow(userId, input.id);
    if (input.text === undefined && input.image === undefined) throw new AppError('p2p.message_empty');
    let uploadId: string | null = null;
    if (input.image !== undefined) {
      const id = uploadIdFrom(input.image);
      const upload = id === null ? null : await findUpload(this.db, id);
      if (upload === null || upload.user_id !== userId) throw new AppError('upload.not_found');
      uploadId = upload.id;
    }
    const now = this.now();
    const { rows } = await this.db.query<{ id: string }>(
      `insert into p2p_messages (order_id, sender, body, upload_id, created_ms) values ($1, $2, $3, $4, $5)
       returning id::text`,
      [input.id, userId, input.text ?? '', uploadId, now],
    );
    const message: P2pMessage = {
      id: Number(rows[0]?.id),
      order_id: input.id,
      from: userId,
      text: input.text ?? '',
      image: uploadId === null ? null : p2pImageAddress(uploadId),
      created_time: now,
    };
    // The row is committed: both parties are told.
    const status = statusOf(row);
    for (const party of [row.buyer_id, row.seller_id])
      this.deps.realtime.toUser(party, 'p2p_order', {
        type: 'p2p_order',
        order_id: input.id,
        status,
        end: row.order_end,
        change: 'message',
        time: now,
      });
    return message;
  }

  /** An image for an order's chat or appeal: stored privately, re-encoded like the identity photos. */
  async upload(userId: number, data: Buffer): Promise<string> {
    const upload = await saveUpload(this.db, this.deps.dataDir, userId, data);
    return p2pImageAddress(upload.id);
  }

  /**
   * An image the user may see: its own upload, or one in the chat or appeal of an order the user is a party
   * to, or the payment QR code of a method shown on such an order. Anything else is answered like a missing
   * image.
   */
  async image(userId: number | null, address: string): Promise<{ upload: StoredUpload; data: Buffer }> {
    const id = uploadIdFrom(address);
    const upload = id === null ? null : await findUpload(this.db, id);
    if (upload === null) throw new AppError('upload.not_found');
    if (userId !== null && upload.user_id !== userId) {
      const { rows } = await this.db.query<{ ok: number }>(
        `select 1 as ok from p2p_orders o
          where (o.buyer_id = $1 or o.seller_id = $1)
            and (o.buyer_id = $3 or o.seller_id = $3)
            and (exists (select 1 from p2p_messages m where m.order_id = o.order_id and m.upload_id = $2)
                 or exists (select 1 from p2p_appeals a where a.order_id = o.order_id and $2 = any(a.evidence))
                 or exists (select 1 from p2p_payment_methods p where p.qr_upload_id = $2 and p.user_id = $3
                             and (p.id = o.method_id or p.id in (select unnest(v.method_ids::int[]) from p2p_ad_versions v
                                                                  where v.ad_id = o.ad_id))))
          limit 1`,
        [userId, upload.id, upload.user_id],
      );
      if (rows.length === 0) throw new AppError('upload.not_found');
    }
    return { upload, data: await readUploadFile(this.deps.dataDir, upload) };
  }

  // ---------------------------------------------------------------------------------------- counters

  counters(userId: number): P2pCounters {
    const now = this.now();
    const counters = this.engine.p2p.counters(userId, now);
    return {
      cancellations_today: counters.cancellations,
      limit: this.engine.p2p.config().cancellationsPerDay,
      restricted_until: counters.restrictedUntilMs,
    };
  }

  // ---------------------------------------------------------------------------------- acceptor deals

  private dealView(order: P2pOrder, viewer: number): AcceptorDeal {
    const type = order.buyer.user_id === viewer ? 'buy' : 'sell';
    const acceptorIsSeller = type === 'buy';
    const method = order.payment_methods[0];
    const confirmed =
      order.status === 'completed' ||
      (!acceptorIsSeller && (order.status === 'paid' || order.status === 'appealed'));
    const isSure: 0 | 1 | 2 =
      order.status === 'cancelled' || order.end === 'arbiterToSeller' ? 2 : confirmed ? 1 : 0;
    const answered = isSure === 0 ? null : (order.ended_time ?? order.paid_time);
    return {
      id: order.id,
      type,
      money: order.fiat_amount,
      number: order.amount,
      deal_account: type === 'sell' ? (method?.account ?? '') : '',
      acceptor_name: acceptorIsSeller ? order.seller.nickname : order.buyer.nickname,
      hes_account: acceptorIsSeller ? (method?.account ?? '') : '',
      way: method?.method ?? 'bank',
      is_sure: isSure,
      create_time: timeText(order.created_time),
      update_time: answered === null ? '' : timeText(answered),
      order_id: order.id,
    };
  }

  async myDeals(
    userId: number,
    input: { type?: 'buy' | 'sell' | undefined; page?: number | undefined },
  ): Promise<Paged<AcceptorDeal>> {
    const page = input.page ?? 1;
    const side =
      input.type === 'buy' ? 'and o.buyer_id = $1' : input.type === 'sell' ? 'and o.seller_id = $1' : '';
    const where = `where o.acceptor and o.maker_id <> $1 and (o.buyer_id = $1 or o.seller_id = $1) ${side}`;
    const { rows } = await this.db.query<OrderRow>(
      `${ORDER_SELECT} ${where} order by o.order_id desc limit $2 offset $3`,
      [userId, P2P_PAGE_SIZE, (page - 1) * P2P_PAGE_SIZE],
    );
    const { rows: count } = await this.db.query<{ count: number }>(
      `select count(*)::int as count from p2p_orders o ${where}`,
      [userId],
    );
    const views = await this.orderViews(userId, rows);
    return paged(
      views.map((view) => this.dealView(view, userId)),
      page,
      P2P_PAGE_SIZE,
      count[0]?.count ?? 0,
    );
  }

  async createDeal(
    userId: number,
    input: { type: 'buy' | 'sell'; ad_id: number; money: string; method_id?: number | undefined },
  ): Promise<AcceptorDeal> {
    const ad = this.engine.p2p.ad(input.ad_id);
    if (ad === undefined || !ad.acceptor) throw new AppError('p2p.ad_not_found');
    // Buying from an acceptor takes its sell ad; selling to one takes its buy ad.
    if ((input.type === 'buy') !== (ad.side === 'sell')) throw new AppError('p2p.ad_not_found');
    const order = await this.createOrder(userId, {
      ad_id: input.ad_id,
      fiat_amount: input.money,
      method_id: input.method_id,
    });
    return this.dealView(order, userId);
  }

  /** The acceptor confirms: a release when it sold (second factor), "paid" when it bought. */
  async answerDeal(
    userId: number,
    orderId: number,
    accept: boolean,
    codes: SecondFactorCodes,
  ): Promise<AcceptorDeal> {
    const row = await this.partyRow(userId, orderId);
    if (!row.acceptor || row.maker_id !== userId) throw new AppError('p2p.not_acceptor');
    if (!accept) await this.act(userId, orderId, 'p2pReject');
    else if (row.seller_id === userId) await this.release(userId, orderId, codes);
    else await this.act(userId, orderId, 'p2pMarkPaid');
    const customer = row.buyer_id === userId ? row.seller_id : row.buyer_id;
    return this.dealView(await this.order(userId, orderId), customer);
  }

  // ------------------------------------------------------------------------------------- back office

  async applications(input: {
    status?: 'pending' | 'approved' | 'rejected' | undefined;
    page?: number | undefined;
  }): Promise<Paged<P2pAdminApplication>> {
    const page = input.page ?? 1;
    const { rows } = await this.db.query<{
      id: number;
      user_id: number;
      account: string;
      nickname: string;
      note: string;
      status: 'pending' | 'approved' | 'rejected';
      reason: string;
      created_ms: string;
      reviewed_ms: string | null;
      reviewed_by: string | null;
      total: number;
    }>(
      `select a.id, a.user_id, u.account, a.nickname, a.note, a.status, a.reason, a.created_ms::text,
              a.reviewed_ms::text, ad.username as reviewed_by, count(*) over ()::int as total
         from p2p_applications a join users u on u.id = a.user_id
         left join admins ad on ad.id = a.reviewed_by
        where ($1::text is null or a.status = $1)
        order by a.id desc limit $2 offset $3`,
      [input.status ?? null, P2P_ADMIN_PAGE_SIZE, (page - 1) * P2P_ADMIN_PAGE_SIZE],
    );
    const data: P2pAdminApplication[] = [];
    for (const row of rows)
      data.push({
        id: row.id,
        user_id: row.user_id,
        account: row.account,
        nickname: row.nickname,
        note: row.note,
        status: row.status,
        reason: row.reason,
        requirements: await this.requirements(this.db, row.user_id),
        created_time: Number(row.created_ms),
        reviewed_time: row.reviewed_ms === null ? null : Number(row.reviewed_ms),
        reviewed_by: row.reviewed_by,
      });
    return paged(data, page, P2P_ADMIN_PAGE_SIZE, rows[0]?.total ?? 0);
  }

  async review(
    actor: Actor,
    input: {
      id: number;
      decision: 'approve' | 'reject';
      reason?: string | undefined;
      acceptor?: 0 | 1 | undefined;
    },
  ): Promise<void> {
    const { rows } = await this.db.query<{ user_id: number; status: string }>(
      'select user_id, status from p2p_applications where id = $1',
      [input.id],
    );
    const application = rows[0];
    if (application === undefined) throw new AppError('p2p.application_not_found');
    if (application.status !== 'pending') throw new AppError('p2p.already_reviewed');
    const approve = input.decision === 'approve';
    const acceptor = approve && input.acceptor === 1;
    // The engine first: the merchant exists there before any row says so (a retry re-applies the same flag).
    if (approve)
      await this.submit({ type: 'p2pSetMerchant', userId: application.user_id, approved: true, acceptor });
    await this.db.transaction(async (tx) => {
      await tx.query(
        `update p2p_applications set status = $2, reason = $3, acceptor = $4, reviewed_ms = $5, reviewed_by = $6
          where id = $1 and status = 'pending'`,
        [
          input.id,
          approve ? 'approved' : 'rejected',
          input.reason ?? '',
          acceptor,
          this.now(),
          actor.adminId,
        ],
      );
      if (approve) await tx.query('update users set is_seller = true where id = $1', [application.user_id]);
      await recordChange(tx, actor, {
        action: approve ? 'p2p.merchant_approved' : 'p2p.merchant_rejected',
        targetType: 'user',
        targetId: application.user_id,
        detail: { application: input.id, reason: input.reason ?? '', acceptor },
      });
    });
  }

  async revoke(actor: Actor, input: { user_id: number; reason: string }): Promise<void> {
    if (this.engine.p2p.merchant(input.user_id) === undefined) throw new AppError('p2p.not_merchant');
    await this.submit({ type: 'p2pSetMerchant', userId: input.user_id, approved: false, acceptor: false });
    await this.db.transaction(async (tx) => {
      await tx.query('update users set is_seller = false where id = $1', [input.user_id]);
      await recordChange(tx, actor, {
        action: 'p2p.merchant_revoked',
        targetType: 'user',
        targetId: input.user_id,
        detail: { reason: input.reason },
      });
    });
  }

  async adminAds(input: {
    status?: 'online' | 'paused' | 'closed' | undefined;
    user_id?: number | undefined;
    page?: number | undefined;
  }): Promise<Paged<P2pAd>> {
    const live =
      input.status === 'closed'
        ? []
        : await this.viewsOfLive(
            this.engine.p2p
              .ads()
              .filter(
                (ad) =>
                  (input.status === undefined || ad.status === input.status) &&
                  (input.user_id === undefined || ad.userId === input.user_id),
              ),
          );
    const closed =
      input.status === undefined || input.status === 'closed'
        ? await this.closedAds(input.user_id === undefined ? {} : { userId: input.user_id })
        : [];
    const all = [...live.reverse(), ...closed];
    const page = input.page ?? 1;
    return paged(
      all.slice((page - 1) * P2P_ADMIN_PAGE_SIZE, page * P2P_ADMIN_PAGE_SIZE),
      page,
      P2P_ADMIN_PAGE_SIZE,
      all.length,
    );
  }

  async adminPauseAd(actor: Actor, input: { id: number; reason: string }): Promise<P2pAd> {
    if (this.engine.p2p.ad(input.id) === undefined) throw new AppError('p2p.ad_not_found');
    await this.submit({ type: 'p2pSetAdStatus', userId: 0, adId: input.id, status: 'paused' });
    await recordChange(this.db, actor, {
      action: 'p2p.ad_paused',
      targetType: 'p2p_ad',
      targetId: input.id,
      detail: { reason: input.reason },
    });
    return this.adDetail(input.id);
  }

  async adminOrders(input: {
    status?: P2pOrderStatus | undefined;
    user_id?: number | undefined;
    page?: number | undefined;
  }): Promise<Paged<P2pAdminOrder>> {
    const page = input.page ?? 1;
    const statusCondition: Record<P2pOrderStatus, string> = {
      completed: `e.status = 'completed'`,
      cancelled: `e.status = 'cancelled'`,
      appealed: `e.status is null and exists (select 1 from p2p_order_steps a where a.order_id = o.order_id and a.status = 'appealed')`,
      paid: `e.status is null and exists (select 1 from p2p_order_steps a where a.order_id = o.order_id and a.status = 'paid')
             and not exists (select 1 from p2p_order_steps a where a.order_id = o.order_id and a.status = 'appealed')`,
      unpaid: `e.status is null and not exists (select 1 from p2p_order_steps a where a.order_id = o.order_id and a.status = 'paid')`,
    };
    const conditions = ['true'];
    if (input.status !== undefined) conditions.push(statusCondition[input.status]);
    if (input.user_id !== undefined) conditions.push('(o.buyer_id = $3 or o.seller_id = $3)');
    const where = `where ${conditions.join(' and ')}`;
    const params: unknown[] = [P2P_ADMIN_PAGE_SIZE, (page - 1) * P2P_ADMIN_PAGE_SIZE];
    if (input.user_id !== undefined) params.push(input.user_id);
    const { rows } = await this.db.query<OrderRow>(
      `${ORDER_SELECT} ${where} order by o.order_id desc limit $1 offset $2`,
      params,
    );
    const { rows: count } = await this.db.query<{ count: number }>(
      `select count(*)::int as count from p2p_orders o
         left join p2p_order_steps e on e.order_id = o.order_id and e.status in ('completed', 'cancelled')
        ${where.replaceAll('$3', '$1')}`,
      input.user_id === undefined ? [] : [input.user_id],
    );
    const data: P2pAdminOrder[] = [];
    for (const row of rows) data.push(await this.adminOrderOf(row, false));
    return paged(data, page, P2P_ADMIN_PAGE_SIZE, count[0]?.count ?? 0);
  }

  async adminOrder(orderId: number): Promise<P2pAdminOrder> {
    const row = await this.orderRow(orderId);
    if (row === undefined) throw new AppError('p2p.order_not_found');
    return this.adminOrderOf(row, true);
  }

  private async adminOrderOf(row: OrderRow, withLog: boolean): Promise<P2pAdminOrder> {
    const view = (await this.orderViews(null, [row]))[0] as P2pOrder;
    const { my_side: _side, unread: _unread, fee: _fee, ...rest } = view;
    const scale = this.scaleOf(row.currency_id);
    const orderId = Number(row.order_id);
    const { rows: appeals } = await this.db.query<{
      user_id: number;
      reason: string;
      description: string;
      evidence: string[];
      created_ms: string;
    }>(
      'select user_id, reason, description, evidence, created_ms::text from p2p_appeals where order_id = $1',
      [orderId],
    );
    const { rows: decisions } = await this.db.query<{
      side: 'buyer' | 'seller';
      reason: string;
      email: string | null;
      created_ms: string;
    }>(
      `select d.side, d.reason, a.username as email, d.created_ms::text from p2p_decisions d
         left join admins a on a.id = d.admin_id where d.order_id = $1`,
      [orderId],
    );
    const appeal = appeals[0];
    const decision = decisions[0];
    const log: P2pEvidenceEntry[] = [];
    if (withLog) {
      log.push({ time: view.created_time, kind: 'status', from: 0, text: 'created', image: null });
      const { rows: steps } = await this.db.query<{
        status: string;
        order_end: string | null;
        by_user: number;
        time_ms: string;
      }>('select status, order_end, by_user, time_ms::text from p2p_order_steps where order_id = $1', [
        orderId,
      ]);
      for (const step of steps)
        log.push({
          time: Number(step.time_ms),
          kind: 'status',
          from: step.by_user,
          text: step.order_end ?? step.status,
          image: null,
        });
      for (const message of await this.messageRows(orderId, 0))
        log.push({
          time: message.created_time,
          kind: message.image === null ? 'message' : 'image',
          from: message.from,
          text: message.text,
          image: message.image,
        });
      if (appeal !== undefined) {
        log.push({
          time: Number(appeal.created_ms),
          kind: 'appeal',
          from: appeal.user_id,
          text: `${appeal.reason}: ${appeal.description}`,
          image: null,
        });
        for (const id of appeal.evidence)
          log.push({
            time: Number(appeal.created_ms),
            kind: 'image',
            from: appeal.user_id,
            text: '',
            image: p2pImageAddress(id),
          });
      }
      if (decision !== undefined)
        log.push({
          time: Number(decision.created_ms),
          kind: 'decision',
          from: -1,
          text: `${decision.side}: ${decision.reason}`,
          image: null,
        });
      log.sort((a, b) => a.time - b.time);
    }
    return {
      ...rest,
      buyer_fee: formatDecimal(BigInt(row.buyer_fee), scale),
      seller_fee: formatDecimal(BigInt(row.seller_fee), scale),
      appeal:
        appeal === undefined
          ? null
          : {
              by: appeal.user_id,
              reason: appeal.reason,
              description: appeal.description,
              evidence: appeal.evidence.map(p2pImageAddress),
              created_time: Number(appeal.created_ms),
            },
      decision:
        decision === undefined
          ? null
          : {
              to: decision.side,
              reason: decision.reason,
              by: decision.email ?? '',
              time: Number(decision.created_ms),
            },
      evidence_log: log,
    };
  }

  /**
   * An image for the back office: one in any order's chat or appeal, or a payment method's QR code. Other
   * uploads (identity photos) are not served here; they have their own reviewer's route.
   */
  async adminImage(address: string): Promise<{ upload: StoredUpload; data: Buffer }> {
    const id = uploadIdFrom(address);
    if (id === null) throw new AppError('upload.not_found');
    const { rows } = await this.db.query(
      `select 1 from p2p_messages where upload_id = $1
       union all select 1 from p2p_appeals where $1 = any(evidence)
       union all select 1 from p2p_payment_methods where qr_upload_id = $1
       limit 1`,
      [id],
    );
    if (rows.length === 0) throw new AppError('upload.not_found');
    return this.image(null, id);
  }

  /** The arbiter's decision (second factor checked by the route), recorded, then executed, audited. */
  async decide(
    actor: Actor,
    input: { id: number; to: 'buyer' | 'seller'; reason: string },
  ): Promise<P2pAdminOrder> {
    const order = this.engine.p2p.order(input.id);
    if (order === undefined || order.status !== 'appealed') throw new AppError('p2p.wrong_state');
    // The engine decides first (it refuses an order no longer in appeal); the reason is then kept with it.
    await this.submit({ type: 'p2pDecide', orderId: input.id, to: input.to, arbiterId: actor.adminId });
    await this.db.query(
      `insert into p2p_decisions (order_id, side, reason, admin_id, created_ms) values ($1, $2, $3, $4, $5)
       on conflict (order_id) do nothing`,
      [input.id, input.to, input.reason, actor.adminId, this.now()],
    );
    await recordChange(this.db, actor, {
      action: 'p2p.order_decided',
      targetType: 'p2p_order',
      targetId: input.id,
      detail: { to: input.to, reason: input.reason },
    });
    return this.adminOrder(input.id);
  }

  async configure(
    actor: Actor,
    input: {
      maker_fee_bp: number;
      taker_fee_bp: number;
      appeal_wait_minutes: number;
      cancellations_per_day: number;
    },
  ): Promise<void> {
    const before = this.engine.p2p.config();
    await this.submit({
      type: 'p2pConfigure',
      makerFeeBp: input.maker_fee_bp,
      takerFeeBp: input.taker_fee_bp,
      appealWaitMs: input.appeal_wait_minutes * 60_000,
      cancellationsPerDay: input.cancellations_per_day,
    });
    await recordChange(this.db, actor, {
      action: 'p2p.configured',
      targetType: 'p2p_config',
      targetId: 'p2p',
      before: {
        maker_fee_bp: before.makerFeeBp,
        taker_fee_bp: before.takerFeeBp,
        appeal_wait_minutes: before.appealWaitMs / 60_000,
        cancellations_per_day: before.cancellationsPerDay,
      },
      after: input,
    });
  }

  async setReference(
    actor: Actor,
    input: { currency_id: number; fiat: P2pFiat; price: string },
  ): Promise<void> {
    await this.submit({
      type: 'p2pSetReference',
      currencyId: input.currency_id,
      fiat: input.fiat,
      priceCents: parseFiat(input.price),
    });
    await recordChange(this.db, actor, {
      action: 'p2p.reference_set',
      targetType: 'p2p_reference',
      targetId: `${input.currency_id}:${input.fiat}`,
      detail: { price: input.price },
    });
  }
}

function maskAccount(account: string): string {
  const at = account.indexOf('@');
  const head = at > 0 ? account.slice(0, at) : account;
  return `${head.slice(0, 2)}***`;
}
