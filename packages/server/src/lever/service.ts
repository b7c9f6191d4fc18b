// The leverage calls' work (docs/lever-calls.md): reading the pair's rules and the user's account from the
// engine, submitting the lever commands through submitOrRefuse (a reply only once the command is durable),
// listing live records from the engine and ended ones from the lever projections, and the 90-day loss share
// from the recorded closed positions.
import type { Command, Engine, EngineEvent, LeverPairView, LeverPositionView } from '@fairex/engine';
import { LeverResultCode, resultCodeName } from '@fairex/engine';
import type {
  LeverBatchCloseReply,
  LeverCalcTerms,
  LeverChangeReply,
  LeverDealAllReply,
  LeverDealReply,
  LeverLossShareReply,
  LeverPairRules,
  LeverRisk,
  LeverStatus,
  LeverTradeRow,
  MessageKey,
  MessageParams,
  Paged,
  ShownPriceKind,
} from '@fairex/shared';
import { LEVER_PAGE_SIZE, formatDecimal, pageRows, paged, tryParseDecimal } from '@fairex/shared';
import { PUBLIC_MINIMUM_ACCOUNTS } from '@fairex/shared/api/site.ts';
import type { EngineRunner } from '../engine-runner/index.ts';
import { submitOrRefuse } from '../engine-runner/submit.ts';
import { AppError } from '../http/app-error.ts';
import type { PriceSourcePolicy } from '../market/price-source-kind.ts';
import type { MarketInfo } from '../market/market-catalog.ts';
import { formatLots } from '../market/market-catalog.ts';
import type { Queryable } from '../store/index.ts';
import {
  ENDED_COLUMNS,
  ENDED_FROM,
  bpPercent,
  endedRow,
  leverQueries,
  liveRow,
  loadOrigins,
  ppmPercent,
  riskView,
} from './views.ts';
import type { EndedRow, ViewContext } from './views.ts';

export type LeverRunner = Pick<EngineRunner<Command, EngineEvent, Engine>, 'submit' | 'engine'>;

/** The base part of /lever/deal the spot area answers (book, last price, mark and index). */
export interface SpotLeverBase {
  lever_transaction: { in: [string, string][]; out: [string, string][] };
  last_price: string | null;
  price_kind?: ShownPriceKind;
  mark_price: string | null;
  index_price: string | null;
}

const REFUSALS: Partial<Record<string, MessageKey>> = {
  leverMultipleNotOffered: 'lever.multiple_not_offered',
  leverShareOutOfRange: 'lever.share_out_of_range',
  leverTargetWrongSide: 'lever.target_wrong_side',
  leverStopWrongSide: 'lever.stop_wrong_side',
  leverRiskTooHigh: 'lever.risk_too_high',
  leverPairNotOpen: 'lever.pair_not_open',
  leverPositionNotFound: 'lever.position_not_found',
  leverWrongStatus: 'lever.wrong_status',
  leverNoMark: 'lever.no_mark',
  leverExposureLimit: 'lever.exposure_limit',
  insufficientFunds: 'lever.insufficient_balance',
  marketNotFound: 'lever.pair_not_open',
  invalidOwner: 'auth.login_required',
  invalidId: 'lever.position_not_found',
};

const leverCodeNames = new Map<number, string>(
  Object.entries(LeverResultCode).map(([name, code]) => [code, name]),
);

export function leverRefusalKey(code: number): MessageKey {
  return REFUSALS[leverCodeNames.get(code) ?? resultCodeName(code)] ?? 'lever.refused';
}

function lotLimits(pair: LeverPairView): MessageParams {
  return { min: pair.minShare, max: pair.maxShare > 0 ? pair.maxShare : '∞' };
}

/** A price text at the market's precision as whole ticks, or the translated refusal. */
export function priceTicks(market: MarketInfo, text: string): number {
  const parsed = tryParseDecimal(text.trim(), market.priceScale);
  if (!parsed.ok || parsed.value <= 0n)
    throw new AppError('lever.price_invalid', { scale: market.priceScale });
  if (parsed.value % market.tickUnits !== 0n)
    throw new AppError('lever.price_tick', { tick: formatDecimal(market.tickUnits, market.priceScale) });
  const ticks = parsed.value / market.tickUnits;
  if (ticks > BigInt(Number.MAX_SAFE_INTEGER))
    throw new AppError('lever.price_invalid', { scale: market.priceScale });
  return Number(ticks);
}

/** A stop price: empty or "0" clears it (0 ticks). */
function stopTicks(market: MarketInfo, text: string | undefined): number {
  if (text === undefined || /^0*(\.0*)?$/.test(text.trim())) return 0;
  return priceTicks(market, text);
}

export interface SubmitInput {
  userId: number;
  market: MarketInfo;
  multiple: number;
  share: number;
  side: 1 | 2;
  status: 0 | 1;
  targetPrice?: string | undefined;
}

export class LeverService {
  readonly #runner: LeverRunner;
  readonly #db: Queryable;
  readonly #market: (marketId: number) => MarketInfo | undefined;
  readonly #presets: (marketId: number) => readonly number[];
  readonly #policy: Pick<PriceSourcePolicy, 'checkOpen'> | undefined;

  constructor(
    runner: LeverRunner,
    db: Queryable,
    market: (marketId: number) => MarketInfo | undefined,
    /** The lot presets the catalogue offers for a market (buttons on the page). */
    presets: (marketId: number) => readonly number[] = () => [],
    /** Whether new positions may open (not on simulated prices outside the demo). */
    policy?: Pick<PriceSourcePolicy, 'checkOpen'>,
  ) {
    this.#runner = runner;
    this.#db = db;
    this.#market = market;
    this.#presets = presets;
    this.#policy = policy;
  }

  get #engine(): Engine {
    return this.#runner.engine;
  }

  get #lever() {
    const lever = leverQueries(this.#engine);
    if (lever === undefined) throw new AppError('lever.not_running');
    return lever;
  }

  context(): ViewContext {
    return { engine: this.#engine, market: this.#market };
  }

  #markTicks(marketId: number): number | undefined {
    const mark = this.#engine.market.markPrice(marketId);
    return mark?.markTicks ?? undefined;
  }

  /** A pair's rules as the page shows them (null when the pair is not configured for leverage). */
  rules(market: MarketInfo): LeverPairRules | null {
    const pair = this.#lever.pair(market.marketId);
    if (pair === undefined) return null;
    const exposure = this.#lever.exposure().find((line) => line.marketId === market.marketId);
    return {
      enabled: pair.enabled,
      lever_share_num: formatLots(market, pair.lotsPerShare),
      spread: ppmPercent(pair.spreadPpm),
      lever_trade_fee: ppmPercent(pair.feePpm),
      overnight: ppmPercent(pair.overnightPpm),
      liquidation_threshold: bpPercent(pair.liquidationThresholdBp),
      liquidation_fee: ppmPercent(pair.liquidationFeePpm),
      exposure_limit: formatLots(market, pair.exposureLimitLots),
      exposure: exposure === undefined ? '0' : signedLots(market, exposure.netLots),
    };
  }

  /** Rows of live records, with the marks they were priced on. */
  async #liveRows(views: readonly LeverPositionView[]): Promise<LeverTradeRow[]> {
    const origins = await loadOrigins(
      this.#db,
      views.map((view) => view.positionId),
    );
    const rows: LeverTradeRow[] = [];
    for (const view of views) {
      const market = this.#market(view.marketId);
      if (market === undefined) continue;
      rows.push(liveRow(market, view, this.#markTicks(view.marketId), origins.get(view.positionId)));
    }
    return rows;
  }

  risk(userId: number, quoteCurrencyId: number, pairThresholdBp = 0): LeverRisk {
    return riskView(this.#engine, this.#lever.risk(userId, quoteCurrencyId), pairThresholdBp);
  }

  #calc(market: MarketInfo, pair: LeverPairView | undefined, userId: number | null): LeverCalcTerms | null {
    if (pair === undefined) return null;
    let account: LeverCalcTerms['account'] = null;
    if (userId !== null) {
      const risk = this.#lever.risk(userId, market.quoteCurrencyId);
      let netLots = 0;
      let pairTerm = 0n;
      for (const view of this.#lever.positions(userId, 1)) {
        if (view.marketId !== market.marketId) continue;
        const signed = view.side === 1 ? view.lots : -view.lots;
        netLots += signed;
        // The pair's mark term of this holding's profit: profit - signed x (-entry) x q = signed x mark x q.
        pairTerm += view.profit + BigInt(signed) * BigInt(view.entryTicks) * market.quoteMinorPerTickLot;
      }
      account = {
        balance_minor: risk.balance.toString(),
        origin_margin_minor: risk.originMargin.toString(),
        rest_equity_minor: (risk.equity - pairTerm).toString(),
        net_lots: netLots,
        threshold_bp: risk.thresholdBp,
      };
    }
    return {
      tick_size: formatDecimal(market.tickUnits, market.priceScale),
      price_scale: market.priceScale,
      legal_scale: market.quoteScale,
      quote_minor_per_tick_lot: market.quoteMinorPerTickLot.toString(),
      lots_per_share: pair.lotsPerShare,
      spread_ppm: pair.spreadPpm,
      fee_ppm: pair.feePpm,
      threshold_bp: pair.liquidationThresholdBp,
      account,
    };
  }

  /** /lever/deal: the book and prices (from the spot area), the pair's rules, the caller's account. */
  async deal(userId: number | null, market: MarketInfo, base: SpotLeverBase): Promise<LeverDealReply> {
    const lever = leverQueries(this.#engine);
    const pair = lever?.pair(market.marketId);
    const wallet =
      userId === null ? null : this.#engine.ledger.balance(userId, 'lever', market.quoteCurrencyId);
    const live =
      userId === null || lever === undefined
        ? []
        : lever.positions(userId, 1).filter((view) => view.marketId === market.marketId);
    return {
      lever_available: pair?.enabled === true,
      symbol: market.symbol,
      legal_id: market.quoteCurrencyId,
      currency_id: market.baseCurrencyId,
      legal_name: market.quoteCode,
      currency_name: market.baseCode,
      last_price: base.last_price,
      price_kind: base.price_kind ?? 'none',
      mark_price: base.mark_price,
      index_price: base.index_price,
      lever_transaction: base.lever_transaction,
      multiple: {
        muit: (pair?.multiples ?? []).map((value) => ({ value })),
        share: presetsOf(pair, this.#presets(market.marketId)),
      },
      lever_share_limit: { min: pair?.minShare ?? 0, max: pair?.maxShare ?? 0 },
      rules: lever === undefined ? null : this.rules(market),
      calc: lever === undefined ? null : this.#calc(market, pair, userId),
      user_lever: wallet === null ? null : formatDecimal(wallet.available, market.quoteScale),
      all_levers: wallet === null ? null : formatDecimal(wallet.available + wallet.locked, market.quoteScale),
      my_transaction: await this.#liveRows(live),
      risk:
        userId === null || lever === undefined
          ? null
          : this.risk(userId, market.quoteCurrencyId, pair?.liquidationThresholdBp ?? 0),
      ExRAte: null,
    };
  }

  /**
   * Whom a mark move of the pair concerns: the users holding an open position on it (engine query,
   * proportional to the answer), with the pair's quote currency; undefined for a pair without lever rules.
   */
  holdersOf(marketId: number): { quoteCurrencyId: number; userIds: number[] } | undefined {
    const lever = leverQueries(this.#engine);
    const pair = lever?.pair(marketId);
    if (lever === undefined || pair === undefined) return undefined;
    return { quoteCurrencyId: pair.quoteCurrencyId, userIds: lever.holdersOf(marketId) };
  }

  /** /lever/dealall and the push: the user's live records and the risk of each quote currency. */
  async dealAll(userId: number, legalId?: number): Promise<LeverDealAllReply> {
    const lever = this.#lever;
    const currencies = lever.currenciesOf(userId).filter((id) => legalId === undefined || id === legalId);
    const views = lever
      .positions(userId)
      .filter((view) => legalId === undefined || view.quoteCurrencyId === legalId);
    const rows = await this.#liveRows(views);
    return {
      risks: currencies.map((currencyId) => this.risk(userId, currencyId)),
      trades_all: rows.filter((row) => row.status === 1),
      trades_entrust: rows.filter((row) => row.status === 0),
    };
  }

  /**
   * /lever/submit: a position at market (status 1) or a limit entry (status 0). Refused on simulated prices
   * outside the demo (closing, cancelling and stops are not: they only end what is open).
   */
  async submit(input: SubmitInput): Promise<LeverTradeRow> {
    this.#policy?.checkOpen();
    const lever = this.#lever;
    const pair = lever.pair(input.market.marketId);
    if (pair === undefined || !pair.enabled) throw new AppError('lever.pair_not_open');
    if (input.share < pair.minShare) throw new AppError('lever.share_below_min', { min: pair.minShare });
    if (pair.maxShare > 0 && input.share > pair.maxShare)
      throw new AppError('lever.share_out_of_range', lotLimits(pair));
    if (!pair.multiples.includes(input.multiple)) throw new AppError('lever.multiple_not_offered');
    let command: Command;
    if (input.status === 0) {
      if (input.targetPrice === undefined) throw new AppError('lever.target_required');
      command = {
        type: 'submitLeverEntry',
        userId: input.userId,
        marketId: input.market.marketId,
        side: input.side,
        share: input.share,
        multiple: input.multiple,
        targetTicks: priceTicks(input.market, input.targetPrice),
      };
    } else {
      command = {
        type: 'openLeverPosition',
        userId: input.userId,
        marketId: input.market.marketId,
        side: input.side,
        share: input.share,
        multiple: input.multiple,
      };
    }
    const { reply } = await submitOrRefuse<{ positionId: number }>(this.#runner, command, {
      refusal: (code) => {
        const key = leverRefusalKey(code);
        return key === 'lever.share_out_of_range' ? { key, params: lotLimits(pair) } : { key };
      },
    });
    return this.row(input.userId, reply.positionId);
  }

  /** One record of the user, live or ended; the caller's own only. */
  async row(userId: number, positionId: number): Promise<LeverTradeRow> {
    const live = this.#lever.position(positionId);
    if (live !== undefined) {
      if (live.userId !== userId) throw new AppError('lever.position_not_found');
      const [row] = await this.#liveRows([live]);
      if (row !== undefined) return row;
    }
    const { rows } = await this.#db.query<EndedRow>(
      `select ${ENDED_COLUMNS} from ${ENDED_FROM} where e.position_id = $1 and e.user_id = $2`,
      [positionId, userId],
    );
    const ended = rows[0];
    const market = ended === undefined ? undefined : this.#market(Number(ended.market_id));
    if (ended === undefined || market === undefined) throw new AppError('lever.position_not_found');
    return endedRow(market, ended);
  }

  /** /lever/my_trade: one status, optionally one pair, 10 a page, newest first. */
  async myTrade(
    userId: number,
    options: { status: LeverStatus; market?: MarketInfo | undefined; page: number },
  ): Promise<Paged<LeverTradeRow>> {
    const { status, market, page } = options;
    if (status === 0 || status === 1) {
      const views = this.#lever
        .positions(userId, status)
        .filter((view) => market === undefined || view.marketId === market.marketId)
        .reverse();
      const slice = pageRows(views, page, LEVER_PAGE_SIZE);
      return paged(await this.#liveRows(slice), page, LEVER_PAGE_SIZE, views.length);
    }
    const params: unknown[] = [userId, status];
    let where = 'e.user_id = $1 and e.status = $2';
    if (market !== undefined) {
      params.push(market.marketId);
      where += ` and e.market_id = $${params.length}`;
    }
    const count = await this.#db.query<{ count: string | number }>(
      `select count(*) as count from lever_ends e where ${where}`,
      params,
    );
    const total = Number(count.rows[0]?.count ?? 0);
    const { rows } = await this.#db.query<EndedRow>(
      `select ${ENDED_COLUMNS} from ${ENDED_FROM} where ${where}
        order by e.position_id desc limit ${LEVER_PAGE_SIZE} offset ${(page - 1) * LEVER_PAGE_SIZE}`,
      params,
    );
    const list: LeverTradeRow[] = [];
    for (const row of rows) {
      const info = this.#market(Number(row.market_id));
      if (info !== undefined) list.push(endedRow(info, row));
    }
    return paged(list, page, LEVER_PAGE_SIZE, total);
  }

  async #change(userId: number, command: Command, positionId: number): Promise<LeverChangeReply> {
    await submitOrRefuse(this.#runner, command, { refusal: (code) => ({ key: leverRefusalKey(code) }) });
    return { trade: await this.row(userId, positionId) };
  }

  /** Refuses a record of another user as if it did not exist (nothing about it is told). */
  #own(userId: number, positionId: number): void {
    const live = this.#lever.position(positionId);
    if (live === undefined || live.userId !== userId) throw new AppError('lever.position_not_found');
  }

  async close(userId: number, positionId: number): Promise<LeverChangeReply> {
    this.#own(userId, positionId);
    return this.#change(userId, { type: 'closeLeverPosition', userId, positionId }, positionId);
  }

  async cancel(userId: number, positionId: number): Promise<LeverChangeReply> {
    this.#own(userId, positionId);
    return this.#change(userId, { type: 'revokeLeverEntry', userId, positionId }, positionId);
  }

  async setStops(
    userId: number,
    positionId: number,
    takeProfit: string | undefined,
    stopLoss: string | undefined,
  ): Promise<LeverChangeReply> {
    this.#own(userId, positionId);
    const live = this.#lever.position(positionId);
    const market = live === undefined ? undefined : this.#market(live.marketId);
    if (market === undefined) throw new AppError('lever.position_not_found');
    return this.#change(
      userId,
      {
        type: 'setLeverStops',
        userId,
        positionId,
        takeProfitTicks: stopTicks(market, takeProfit),
        stopLossTicks: stopTicks(market, stopLoss),
      },
      positionId,
    );
  }

  async batchClose(userId: number, which: 0 | 1 | 2): Promise<LeverBatchCloseReply> {
    const { reply } = await submitOrRefuse<{ closed: { positionId: number }[] }>(
      this.#runner,
      { type: 'closeLeverPositions', userId, which },
      { refusal: (code) => ({ key: leverRefusalKey(code) }) },
    );
    const trades: LeverTradeRow[] = [];
    for (const closed of reply.closed) trades.push(await this.row(userId, closed.positionId));
    return { closed: reply.closed.length, trades };
  }

  /**
   * The share of lever accounts that lost money over `days`: accounts with a position closed in the window,
   * and of those the ones whose closed positions' profits, less opening fees and overnight charges, are below
   * zero. From the recorded closed positions only; demo accounts count for nothing, and over more than zero
   * and fewer than PUBLIC_MINIMUM_ACCOUNTS accounts the counts and the share are withheld (below_minimum).
   */
  async lossShare(days: number, nowMs: number): Promise<LeverLossShareReply> {
    const fromMs = nowMs - days * 86_400_000;
    const { rows } = await this.#db.query<{ accounts: string | number; losing: string | number }>(
      `select count(*) as accounts, count(*) filter (where net < 0) as losing
         from (select e.user_id, sum(e.profit - p.fee - e.overnight_paid) as net
                 from lever_ends e join lever_positions p on p.position_id = e.position_id
                where e.status = 3 and e.ended_ms >= $1
                  and e.user_id not in (select id from users where is_demo)
                group by e.user_id) accounts`,
      [fromMs],
    );
    const accounts = Number(rows[0]?.accounts ?? 0);
    const losing = Number(rows[0]?.losing ?? 0);
    if (accounts > 0 && accounts < PUBLIC_MINIMUM_ACCOUNTS)
      return {
        days,
        accounts: null,
        losing_accounts: null,
        losing_share: null,
        minimum_accounts: PUBLIC_MINIMUM_ACCOUNTS,
        below_minimum: true,
      };
    return {
      days,
      minimum_accounts: PUBLIC_MINIMUM_ACCOUNTS,
      below_minimum: false,
      accounts,
      losing_accounts: losing,
      // One decimal, rounded half up, from integers only.
      losing_share:
        accounts === 0
          ? null
          : formatDecimal((BigInt(losing) * 2000n + BigInt(accounts)) / (2n * BigInt(accounts)), 1),
    };
  }
}

function presetsOf(pair: LeverPairView | undefined, catalog: readonly number[]): { value: number }[] {
  if (pair === undefined) return [];
  const presets = catalog.filter(
    (value) => value >= pair.minShare && (pair.maxShare === 0 || value <= pair.maxShare),
  );
  return presets.map((value) => ({ value }));
}

function signedLots(market: MarketInfo, lots: number): string {
  const text = formatLots(market, Math.abs(lots));
  return lots < 0 ? `-${text}` : text;
}
