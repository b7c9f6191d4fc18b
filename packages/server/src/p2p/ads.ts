// P2P ads: the public book (live ads from the engine), one ad, a merchant's own ads (closed ones from the
// store), and creating, editing, pausing, resuming and closing them through engine commands.
import type { P2pAdView } from '@fairex/engine';
import { P2P_WINDOWS_MS } from '@fairex/engine';
import { p2pAmountForFiat, p2pFiatCents } from '@fairex/engine/calc';
import type { P2pAd, P2pFiat, P2pMerchantStats, P2pMethod, Paged } from '@fairex/shared';
import {
  P2P_DEFAULT_WINDOW_MINUTES,
  P2P_PAGE_SIZE,
  formatDecimal,
  pageOfList,
  pageRows,
  paged,
  tryParseDecimal,
} from '@fairex/shared';
import { AppError } from '../http/app-error.ts';
import { cents, parseFiat, parsePercentBp, percentText } from './format.ts';
import type { MethodRow } from './payment-methods.ts';
import { P2pListingPart } from './listing-part.ts';

export class P2pAds extends P2pListingPart {
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
        feedback_count: 0,
        positive_rate: null,
        demo: false,
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

  async viewsOfLive(ads: readonly P2pAdView[]): Promise<P2pAd[]> {
    const methods = await this.paymentMethods.methodsById(ads.flatMap((ad) => ad.methodIds));
    const stats = await this.merchants.statsOf(ads.map((ad) => ad.userId));
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
      const methods = await this.paymentMethods.methodsById(ads.flatMap((ad) => ad.methodIds));
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
    const slice = pageRows(ads, page, P2P_PAGE_SIZE);
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
  async closedAds(filter: { adId?: number; userId?: number }): Promise<P2pAd[]> {
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
    const methods = await this.paymentMethods.methodsById(rows.flatMap((row) => row.method_ids));
    const stats = await this.merchants.statsOf(rows.map((row) => row.user_id));
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
    return pageOfList(all, page, P2P_PAGE_SIZE);
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
    const methods = await this.paymentMethods.methodsById(input.method_ids);
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
    input: Parameters<P2pAds['adTerms']>[1] & {
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

  async editAd(userId: number, input: Parameters<P2pAds['adTerms']>[1] & { id: number }): Promise<P2pAd> {
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
}
