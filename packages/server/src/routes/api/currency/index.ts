// Market data calls under /api/currency (spec 01 section 7, spec 02 section 7):
// - GET  /currency/quotation_new     every pair grouped by quote currency, with is_display (1 shown, 0 hidden);
// - POST /currency/quotation_new     the market board: the shown pairs, message[0].quotation;
// - GET  /currency/new_timeshar      chart bars, answered as {code: 1, msg, data} or {code: -1, msg, data: []};
// - GET  /currency/new_tradehistory  the latest trades of a pair;
// - GET  /currency/detail            a currency's name and description in the request language.
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { Language, MessageKey, MessageParams, TimesharReply } from '@fairex/shared';
import { fieldName, issueMessage, ok, translate } from '@fairex/shared';
import {
  currencyDetailInput,
  timesharInput,
  tradeHistoryInput,
  type ChartBar,
  type CurrencyDetail,
} from '@fairex/shared/api/market.ts';
import { AppError } from '../../../http/app-error.ts';
import { fieldWithUnstorableText, route } from '../../../http/route.ts';
import { barsInRange } from '../../../market/bars.ts';
import {
  formatBaseMinor,
  formatLots,
  formatPrice,
  formatQuoteMinor,
} from '../../../market/market-catalog.ts';
import { nominalLengthMs, parsePeriod, PERIODS } from '../../../market/periods.ts';
import { currencyText, recentPublicTrades } from '../../../market/repository.ts';
import { CATALOG_MAX_AGE_MS, quotationGroups } from '../../../market/quotations.ts';
import { DEFAULT_TIME_ZONE, formatTime } from '../../../spot/time-format.ts';

/** Bars a request without `from` covers. */
const DEFAULT_BARS = 300;
/** A time at or above this is read as milliseconds, below it as seconds (10^11 s is the year 5138). */
const MILLISECONDS_FROM = 100_000_000_000;

export default async function currencyRoutes(app: FastifyInstance): Promise<void> {
  // Market data exists only where the engine runs.
  if (!app.hasDecorator('marketData')) return;
  const marketData = app.marketData;

  route(app, {
    method: 'GET',
    url: '/currency/quotation_new',
    auth: 'optional',
    handler: async () => {
      await marketData.catalog.refresh(CATALOG_MAX_AGE_MS);
      return ok(quotationGroups(marketData, false));
    },
  });

  route(app, {
    method: 'POST',
    url: '/currency/quotation_new',
    handler: async () => {
      await marketData.catalog.refresh(CATALOG_MAX_AGE_MS);
      return ok(quotationGroups(marketData, true));
    },
  });

  app.get('/currency/new_timeshar', async (request): Promise<TimesharReply<ChartBar>> => {
    const lang = request.lang;
    const refuse = (key: MessageKey, params?: MessageParams): TimesharReply<ChartBar> => ({
      code: -1,
      msg: translate(lang, key, params),
      data: [],
    });
    const query = (request.query ?? {}) as Record<string, unknown>;
    const nulField = fieldWithUnstorableText(query);
    if (nulField !== undefined) {
      return refuse('validation.nul_character', { field: fieldName(lang, nulField) });
    }
    const parsed = timesharInput.safeParse(query);
    if (!parsed.success) return { code: -1, msg: describeIssue(lang, parsed.error), data: [] };
    const input = parsed.data;
    const market = await marketData.catalog.bySymbol(input.symbol);
    if (market === undefined) return refuse('market.unknown_market');
    const period = parsePeriod(input.period);
    if (period === undefined) return refuse('market.unknown_period', { values: PERIODS.join(', ') });
    const toMs = input.to === undefined ? Date.now() : toMilliseconds(input.to);
    const fromMs =
      input.from === undefined ? toMs - DEFAULT_BARS * nominalLengthMs(period) : toMilliseconds(input.from);
    if (fromMs > toMs) return refuse('market.range_order');
    const bars = await barsInRange(app.store, marketData, market, period, fromMs, toMs);
    return {
      code: 1,
      msg: translate(lang, 'common.ok'),
      data: bars.map((bar) => ({
        id: Math.floor(bar.openTimeMs / 1000),
        time: bar.openTimeMs,
        open: formatPrice(market, bar.open),
        high: formatPrice(market, bar.high),
        low: formatPrice(market, bar.low),
        close: formatPrice(market, bar.close),
        volume: formatBaseMinor(market, bar.volume),
        amount: formatQuoteMinor(market, bar.turnover),
        source: bar.source,
      })),
    };
  });

  route(app, {
    method: 'GET',
    url: '/currency/new_tradehistory',
    input: tradeHistoryInput,
    handler: async ({ input }) => {
      const market = await marketData.catalog.byPair(input.legal_id, input.currency_id);
      if (market === undefined) throw new AppError('market.unknown_market');
      const rows = await recentPublicTrades(app.store, market.marketId, input.limit ?? 30);
      return ok(
        rows.map((row) => {
          const price = formatPrice(market, row.price_ticks);
          return {
            id: Number(row.trade_id),
            // Display text in the chart's zone, as the `market_detail` push carries it.
            time: formatTime(Number(row.time_ms), DEFAULT_TIME_ZONE),
            time_ms: Number(row.time_ms),
            price,
            amount: formatLots(market, row.quantity_lots),
            direction: row.maker_side === 'buy' ? 'sell' : 'buy',
            close: price,
          };
        }),
      );
    },
  });

  route(app, {
    method: 'GET',
    url: '/currency/detail',
    input: currencyDetailInput,
    handler: async ({ input, lang }) => {
      const currency = await currencyText(app.store, input.id);
      if (currency === undefined) throw new AppError('market.unknown_currency');
      return ok({
        id: currency.id,
        code: currency.code,
        name: currency.name,
        desc: currency.descriptions[lang] ?? currency.descriptions.en ?? '',
      } satisfies CurrencyDetail);
    },
  });
}

function toMilliseconds(value: number): number {
  return value >= MILLISECONDS_FROM ? value : value * 1000;
}

function describeIssue(lang: Language, error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue === undefined) return translate(lang, 'validation.body');
  const message = issueMessage(issue);
  return translate(lang, message.key, { ...message.params, field: fieldName(lang, message.field) });
}
