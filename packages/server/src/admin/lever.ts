// The back office of leverage (docs/lever-calls.md, "Back office"): each pair's rules read from the engine
// and changed only through its journaled `setLeverPair` (new positions copy them; open ones keep theirs),
// with the house's open exposure per pair; the insurance fund (the `insurance` owner's lever wallet), its
// movements from the account log and its funding from outside (`systemFund`, an operator's capital
// injection, disclosed by its memo); and every liquidation with the mark, the risk rate and the threshold
// it crossed. Every change is audited after the engine has accepted it, with the values before and after.
import type { Engine, LeverPairView, SetLeverPairCommand } from '@fairex/engine';
import { LeverReasonCode, resultCodeName } from '@fairex/engine';
import type {
  LeverAdminPair,
  LeverInsuranceFund,
  LeverInsuranceMovement,
  LeverLiquidationRow,
  MessageKey,
  Paged,
} from '@fairex/shared';
import { LEVER_ADMIN_PER_PAGE, formatDecimal, paged, tryParseDecimal } from '@fairex/shared';
import type { SubmittingRunner } from '../engine-runner/submit.ts';
import { submitOrRefuse } from '../engine-runner/submit.ts';
import { AppError } from '../http/app-error.ts';
import type { MarketInfo } from '../market/market-catalog.ts';
import { formatLots, formatPrice } from '../market/market-catalog.ts';
import type { Queryable } from '../store/index.ts';
import { bpPercent, leverQueries, ppmPercent } from '../lever/views.ts';
import { catalogLeverRows, updateCatalogLever } from '../lever/settings.ts';
import type { Actor } from './audit-changes.ts';
import { recordChange } from './audit-changes.ts';
import { amountAtScale } from './catalog.ts';

const REFUSALS: Partial<Record<string, MessageKey>> = {
  invalidField: 'backoffice.lever_invalid',
  invalidId: 'backoffice.lever_invalid',
  invalidAmount: 'backoffice.micro_amounts',
  currencyNotFound: 'backoffice.micro_currency_unknown',
  marketNotFound: 'market.unknown_market',
};

function refusal(code: number): { key: MessageKey; params?: Record<string, string | number> } {
  const key = REFUSALS[resultCodeName(code)];
  return key === undefined ? { key: 'backoffice.engine_refused', params: { code } } : { key };
}

export interface LeverChangeContext {
  engine: Engine;
  runner: SubmittingRunner;
  db: Queryable;
  actor: Actor;
  market(marketId: number): Promise<MarketInfo | undefined>;
}

function lever(engine: Engine) {
  const queries = leverQueries(engine);
  if (queries === undefined) throw new AppError('lever.not_running');
  return queries;
}

/** A percent text ("0.05") in ppm (500); refused beyond `maxPercent`. */
function percentPpm(text: string, field: string, maxPercent: bigint): number {
  const parsed = tryParseDecimal(text.trim(), 4);
  if (!parsed.ok) throw new AppError('validation.decimal_scale', { field, scale: 4 });
  if (parsed.value > maxPercent * 10_000n) throw new AppError('backoffice.lever_invalid');
  return Number(parsed.value);
}

function percentBp(text: string, field: string): number {
  const parsed = tryParseDecimal(text.trim(), 2);
  if (!parsed.ok) throw new AppError('validation.decimal_scale', { field, scale: 2 });
  return Number(parsed.value);
}

function pairRow(engine: Engine, market: MarketInfo, pair: LeverPairView, presets: number[]): LeverAdminPair {
  const queries = lever(engine);
  const exposure = queries.exposure().find((line) => line.marketId === market.marketId);
  const net = exposure?.netLots ?? 0;
  return {
    market_id: market.marketId,
    symbol: market.symbol,
    enabled: pair.enabled,
    multiples: pair.multiples,
    share_presets: presets,
    min_share: pair.minShare,
    max_share: pair.maxShare,
    lever_share_num: formatLots(market, pair.lotsPerShare),
    spread: ppmPercent(pair.spreadPpm),
    lever_trade_fee: ppmPercent(pair.feePpm),
    overnight: ppmPercent(pair.overnightPpm),
    liquidation_threshold: bpPercent(pair.liquidationThresholdBp),
    liquidation_fee: ppmPercent(pair.liquidationFeePpm),
    exposure_limit: formatLots(market, pair.exposureLimitLots),
    exposure: net < 0 ? `-${formatLots(market, -net)}` : formatLots(market, net),
    longs: formatLots(market, exposure?.longLots ?? 0),
    shorts: formatLots(market, exposure?.shortLots ?? 0),
  };
}

/** Every configured pair with its rules and the house's exposure on it. */
export async function leverAdminPairs(
  engine: Engine,
  db: Queryable,
  market: (marketId: number) => MarketInfo | undefined,
): Promise<LeverAdminPair[]> {
  const presets = new Map((await catalogLeverRows(db)).map((row) => [row.marketId, row.sharePresets]));
  const list: LeverAdminPair[] = [];
  for (const pair of lever(engine).pairs()) {
    const info = market(pair.marketId);
    if (info !== undefined) list.push(pairRow(engine, info, pair, presets.get(pair.marketId) ?? []));
  }
  return list;
}

export interface LeverPairInput {
  market_id: number;
  enabled: 0 | 1;
  multiples: number[];
  share_presets?: number[] | undefined;
  min_share: number;
  max_share: number;
  lever_share_num: string;
  spread: string;
  fee: string;
  overnight: string;
  liquidation_threshold: string;
  liquidation_fee: string;
  exposure_limit: string;
}

/** Sets a pair's rules for new positions (journaled `setLeverPair`), keeps the catalogue in step, audits. */
export async function setLeverPair(context: LeverChangeContext, input: LeverPairInput): Promise<void> {
  const { engine } = context;
  const market = await context.market(input.market_id);
  const spot = engine.spot.market(input.market_id);
  if (market === undefined || spot === undefined) throw new AppError('market.unknown_market');
  const lot = formatLots(market, 1);
  const shareMinor = amountAtScale(input.lever_share_num, market.baseScale, 'lever_share_num');
  if (shareMinor <= 0n || shareMinor % spot.lotBaseMinor !== 0n)
    throw new AppError('backoffice.lever_lot_size', { lot });
  const limitMinor = amountAtScale(input.exposure_limit, market.baseScale, 'exposure_limit');
  if (limitMinor % spot.lotBaseMinor !== 0n) throw new AppError('backoffice.lever_lot_size', { lot });
  if (input.max_share > 0 && input.max_share < input.min_share)
    throw new AppError('backoffice.lever_invalid');
  const command: SetLeverPairCommand = {
    type: 'setLeverPair',
    marketId: input.market_id,
    enabled: input.enabled === 1,
    lotsPerShare: Number(shareMinor / spot.lotBaseMinor),
    multiples: [...new Set(input.multiples)].sort((a, b) => a - b),
    minShare: input.min_share,
    maxShare: input.max_share,
    spreadPpm: percentPpm(input.spread, 'spread', 50n),
    feePpm: percentPpm(input.fee, 'fee', 50n),
    overnightPpm: percentPpm(input.overnight, 'overnight', 50n),
    liquidationThresholdBp: percentBp(input.liquidation_threshold, 'liquidation_threshold'),
    liquidationFeePpm: percentPpm(input.liquidation_fee, 'liquidation_fee', 50n),
    exposureLimitLots: Number(limitMinor / spot.lotBaseMinor),
  };
  const before = lever(engine).pair(input.market_id);
  await submitOrRefuse(context.runner, command, { refusal });
  const rows = await catalogLeverRows(context.db);
  const current = rows.find((row) => row.marketId === input.market_id);
  await updateCatalogLever(context.db, {
    marketId: input.market_id,
    enabled: command.enabled,
    shareSize: shareMinor,
    shareMin: command.minShare,
    shareMax: command.maxShare,
    sharePresets: input.share_presets ?? current?.sharePresets ?? [],
    multiples: command.multiples,
    spreadPpm: command.spreadPpm,
    feePpm: command.feePpm,
    overnightPpm: command.overnightPpm,
  });
  const { type: _type, ...after } = command;
  await recordChange(context.db, context.actor, {
    action: 'lever.pair',
    targetType: 'market',
    targetId: input.market_id,
    before: before === undefined ? {} : { ...before },
    after,
  });
}

/** The insurance fund per currency it holds (and every quote currency of a lever pair). */
export function insuranceFunds(engine: Engine): LeverInsuranceFund[] {
  const quotes = new Set(
    lever(engine)
      .pairs()
      .map((pair) => pair.quoteCurrencyId),
  );
  const list: LeverInsuranceFund[] = [];
  for (const currency of engine.ledger.currencies()) {
    const balance = engine.ledger.balance('insurance', 'lever', currency.currencyId);
    if (!quotes.has(currency.currencyId) && balance.available === 0n && balance.locked === 0n) continue;
    list.push({
      currency_id: currency.currencyId,
      currency_name: currency.code,
      balance: formatDecimal(balance.available, currency.scale),
    });
  }
  return list;
}

/** The insurance fund's latest movements, newest first, from the account log. */
export async function insuranceMovements(engine: Engine, db: Queryable): Promise<LeverInsuranceMovement[]> {
  const { rows } = await db.query<{
    seq: string | number;
    time_ms: string | number;
    currency_id: number;
    delta: string;
    reason: number;
    reference_id: string | number;
  }>(
    `select seq, time_ms, currency_id, (available_after - available_before)::text as delta, reason, reference_id
       from account_log where owner_key = -3 and wallet = 'lever'
      order by seq desc, event_index desc limit 100`,
  );
  return rows.map((row) => {
    const currency = engine.ledger.currency(Number(row.currency_id));
    const reason = Number(row.reason);
    const kind =
      reason === LeverReasonCode.leverShortfall
        ? 'shortfall'
        : reason === LeverReasonCode.leverLiquidationFee
          ? 'liquidation_fee'
          : 'funding';
    const reference = Number(row.reference_id);
    return {
      seq: Number(row.seq),
      time: Number(row.time_ms),
      currency_name: currency?.code ?? '',
      amount: formatDecimal(BigInt(row.delta), currency?.scale ?? 0),
      kind,
      position_id: kind === 'funding' || reference === 0 ? null : reference,
      user_id: null,
    };
  });
}

/** Funds the insurance fund from outside (an operator's capital injection), journaled, audited. */
export async function fundInsurance(
  context: LeverChangeContext,
  input: { currency_id: number; amount: string; note?: string | undefined },
): Promise<{ balance: string }> {
  const { engine } = context;
  const currency = engine.ledger.currency(input.currency_id);
  if (currency === undefined) throw new AppError('backoffice.micro_currency_unknown');
  const minor = amountAtScale(input.amount, currency.scale, 'amount');
  const before = engine.ledger.balance('insurance', 'lever', input.currency_id).available;
  await submitOrRefuse(
    context.runner,
    {
      type: 'systemFund',
      owner: 'insurance',
      wallet: 'lever',
      currencyId: input.currency_id,
      amount: minor,
      memo: `insurance fund (administrator ${context.actor.adminId})`,
    },
    { refusal },
  );
  const after = engine.ledger.balance('insurance', 'lever', input.currency_id).available;
  await recordChange(context.db, context.actor, {
    action: 'lever.insurance_fund',
    targetType: 'currency',
    targetId: input.currency_id,
    before: { balance: formatDecimal(before, currency.scale) },
    after: { balance: formatDecimal(after, currency.scale) },
    detail: {
      amount: formatDecimal(minor, currency.scale),
      ...(input.note === undefined ? {} : { note: input.note }),
    },
  });
  return { balance: formatDecimal(after, currency.scale) };
}

/** Liquidations, newest first, 50 a page. */
export async function liquidations(
  engine: Engine,
  db: Queryable,
  market: (marketId: number) => MarketInfo | undefined,
  filter: { page: number; userId?: number | undefined; marketId?: number | undefined },
): Promise<Paged<LeverLiquidationRow>> {
  const conditions: string[] = [];
  const params: unknown[] = [];
  if (filter.userId !== undefined) {
    params.push(filter.userId);
    conditions.push(`l.user_id = $${params.length}`);
  }
  if (filter.marketId !== undefined) {
    params.push(filter.marketId);
    conditions.push(`l.market_id = $${params.length}`);
  }
  const where = conditions.length === 0 ? '' : `where ${conditions.join(' and ')}`;
  const count = await db.query<{ count: string | number }>(
    `select count(*) as count from lever_liquidations l ${where}`,
    params,
  );
  const { rows } = await db.query<{
    seq: string | number;
    time_ms: string | number;
    user_id: number;
    quote_currency_id: number;
    market_id: number;
    mark_ticks: string | number;
    risk_rate_bp: number;
    threshold_bp: number;
    position_ids: string;
    shortfall: string;
    paid_back: string | null;
  }>(
    `select l.seq, l.time_ms, l.user_id, l.quote_currency_id, l.market_id, l.mark_ticks, l.risk_rate_bp,
            l.threshold_bp, l.position_ids, l.shortfall::text as shortfall,
            (select sum(e.returned)::text from lever_ends e where e.ended_seq = l.seq and e.user_id = l.user_id
               and e.reason = 'liquidation') as paid_back
       from lever_liquidations l ${where}
      order by l.seq desc, l.event_index desc
      limit ${LEVER_ADMIN_PER_PAGE} offset ${(filter.page - 1) * LEVER_ADMIN_PER_PAGE}`,
    params,
  );
  const list = rows.map((row) => {
    const info = market(Number(row.market_id));
    const currency = engine.ledger.currency(Number(row.quote_currency_id));
    const scale = currency?.scale ?? 0;
    return {
      seq: Number(row.seq),
      time: Number(row.time_ms),
      user_id: Number(row.user_id),
      legal_name: currency?.code ?? '',
      symbol: info?.symbol ?? '',
      mark: info === undefined ? String(row.mark_ticks) : formatPrice(info, BigInt(row.mark_ticks)),
      hazard_rate: bpPercent(Math.max(0, Number(row.risk_rate_bp))),
      threshold: bpPercent(Number(row.threshold_bp)),
      positions: row.position_ids === '' ? 0 : row.position_ids.split(',').length,
      paid_back: formatDecimal(BigInt(row.paid_back ?? '0'), scale),
      shortfall: formatDecimal(BigInt(row.shortfall), scale),
    };
  });
  return paged(list, filter.page, LEVER_ADMIN_PER_PAGE, Number(count.rows[0]?.count ?? 0));
}
