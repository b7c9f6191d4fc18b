// The settings pattern: every setting an operator may change while the exchange runs is a typed definition
// here, with the fields the console draws a form from, a zod schema that validates what comes back, a
// reader, and an apply step that writes the change with its audit entry and, where money depends on it,
// reaches the engine through a journaled command. The back office lists and applies them generically, so a
// later product (leverage, seconds contracts, mining) adds its definitions to SETTINGS and its screen
// appears without new routes.
//
// Settings the server reads once at start (the environment, docs/operations.md) are shown beside them,
// read-only, with the variable that sets each.
import type { FastifyInstance } from 'fastify';
import type {
  EnvironmentSetting,
  EnvironmentWord,
  SettingField,
  SettingRow,
  SettingScope,
} from '@fairex/shared';
import { z } from 'zod';
import { decimalText, formatDecimal, integer, optional } from '@fairex/shared';
import type { Config } from '../config.ts';
import type { Actor } from './audit-changes.ts';
import { AppError } from '../http/app-error.ts';
import { flag, httpsUrl } from '@fairex/shared/api/backoffice-fields.ts';
import { readSiteSettings, updateSiteSettings } from './site-settings.ts';
import type { MarketMakerConfig } from '../market/market-maker.ts';
import { DEFAULT_MARKET_MAKER_CONFIG } from '../market/market-maker.ts';
import { listCurrencies, listMarkets, MAX_FEE_PERCENT, updateCurrency, updateMarket } from './catalog.ts';
import { bandPercent, MAX_BAND_PERCENT, setMarketBand } from './market-band.ts';
import type { MarketMakerUpdate } from './market-maker-settings.ts';
import {
  listMarketMakerSettings,
  MAX_MAKER_LEVELS,
  MAX_MAKER_PERCENT,
  updateMarketMakerSettings,
} from './market-maker-settings.ts';

export interface SettingDefinition<V extends Record<string, unknown> = Record<string, unknown>> {
  key: string;
  /** What a row is: one market, one currency, or the whole site (one row, target_id 1). */
  scope: SettingScope;
  /** Applied through an engine command: money depends on it. */
  engine: boolean;
  fields: readonly SettingField[];
  /** Validates a change; every field is optional, and at least one must be given. */
  schema: z.ZodType<V>;
  rows(app: FastifyInstance): Promise<SettingRow[]>;
  apply(app: FastifyInstance, actor: Actor, targetId: number, values: V): Promise<void>;
}

const marketFees: SettingDefinition<{ maker_fee?: string | undefined; taker_fee?: string | undefined }> = {
  key: 'market.fees',
  scope: 'market',
  engine: true,
  fields: [
    { name: 'maker_fee', type: 'percent', max: MAX_FEE_PERCENT },
    { name: 'taker_fee', type: 'percent', max: MAX_FEE_PERCENT },
  ],
  schema: z.object({ maker_fee: optional(decimalText()), taker_fee: optional(decimalText()) }).strict(),
  rows: async (app) =>
    (await listMarkets(app.store, app.engine)).map((market) => ({
      target_id: market.id,
      target: market.symbol,
      values: { maker_fee: market.maker_fee, taker_fee: market.taker_fee },
    })),
  apply: async (app, actor, id, values) => {
    await updateMarket(app.store, app.runner, actor, id, {
      makerFee: values.maker_fee,
      takerFee: values.taker_fee,
    });
  },
};

const marketDisplay: SettingDefinition<{
  is_display?: boolean | undefined;
  display_order?: number | undefined;
  min_notional?: string | undefined;
}> = {
  key: 'market.display',
  scope: 'market',
  engine: false,
  fields: [
    { name: 'is_display', type: 'boolean' },
    { name: 'display_order', type: 'integer', min: -1_000_000, max: 1_000_000 },
    { name: 'min_notional', type: 'decimal' },
  ],
  schema: z
    .object({
      is_display: optional(flag()),
      display_order: optional(integer({ min: -1_000_000, max: 1_000_000 })),
      min_notional: optional(decimalText()),
    })
    .strict(),
  rows: async (app) => {
    const currencies = new Map(
      (await listCurrencies(app.store, app.engine)).map((currency) => [currency.id, currency]),
    );
    return (await listMarkets(app.store, app.engine)).map((market) => ({
      target_id: market.id,
      target: market.symbol,
      values: {
        is_display: market.is_display,
        display_order: market.display_order,
        min_notional: market.min_notional,
      },
      scales: { min_notional: currencies.get(market.quote_currency_id)?.scale ?? 0 },
    }));
  },
  apply: async (app, actor, id, values) => {
    await updateMarket(app.store, app.runner, actor, id, {
      isDisplay: values.is_display,
      displayOrder: values.display_order,
      minNotional: values.min_notional,
    });
  },
};

const currencyWithdrawal: SettingDefinition<{
  withdraw_min?: string | undefined;
  withdraw_fee?: string | undefined;
}> = {
  key: 'currency.withdrawal',
  scope: 'currency',
  engine: false,
  fields: [
    { name: 'withdraw_min', type: 'decimal' },
    { name: 'withdraw_fee', type: 'decimal' },
  ],
  schema: z.object({ withdraw_min: optional(decimalText()), withdraw_fee: optional(decimalText()) }).strict(),
  rows: async (app) =>
    (await listCurrencies(app.store, app.engine)).map((currency) => ({
      target_id: currency.id,
      target: currency.code,
      values: { withdraw_min: currency.withdraw_min, withdraw_fee: currency.withdraw_fee },
      scales: { withdraw_min: currency.scale, withdraw_fee: currency.scale },
    })),
  apply: async (app, actor, id, values) => {
    await updateCurrency(app.store, app.engine, actor, id, {
      withdrawMin: values.withdraw_min,
      withdrawFee: values.withdraw_fee,
    });
  },
};

/** The market maker's configuration this server runs with (its defaults when the market maker is off). */
function makerConfig(app: FastifyInstance): MarketMakerConfig {
  return app.marketLive?.maker?.config ?? DEFAULT_MARKET_MAKER_CONFIG;
}

const marketMaker: SettingDefinition<MarketMakerUpdate> = {
  key: 'market.maker',
  scope: 'market',
  engine: false,
  fields: [
    { name: 'enabled', type: 'boolean' },
    { name: 'levels', type: 'integer', min: 1, max: MAX_MAKER_LEVELS },
    { name: 'half_spread', type: 'percent', max: MAX_MAKER_PERCENT },
    { name: 'level_step', type: 'percent', max: MAX_MAKER_PERCENT },
    { name: 'level_notional', type: 'decimal' },
  ],
  schema: z
    .object({
      enabled: optional(flag()),
      levels: optional(integer({ min: 1, max: MAX_MAKER_LEVELS })),
      half_spread: optional(decimalText()),
      level_step: optional(decimalText()),
      level_notional: optional(decimalText()),
    })
    .strict(),
  rows: async (app) =>
    (await listMarketMakerSettings(app.store, makerConfig(app))).map((pair) => ({
      target_id: pair.id,
      target: pair.symbol,
      values: { ...pair.values },
      scales: { level_notional: pair.quoteScale },
    })),
  apply: async (app, actor, id, values) => {
    await updateMarketMakerSettings(app.store, makerConfig(app), actor, id, values);
  },
};

/** The market-order price-protection band per pair, in percent (market-band.ts). */
const marketPriceBand: SettingDefinition<{ price_band?: string | undefined }> = {
  key: 'market.price_band',
  scope: 'market',
  engine: true,
  fields: [{ name: 'price_band', type: 'percent', max: MAX_BAND_PERCENT }],
  schema: z.object({ price_band: decimalText().optional() }).strict(),
  rows: async (app) =>
    (await listMarkets(app.store, app.engine)).map((market) => ({
      target_id: market.id,
      target: market.symbol,
      values: { price_band: bandPercent(app.engine.spot.market(market.id)?.bandPpm ?? 0) },
    })),
  apply: async (app, actor, id, values) => {
    if (values.price_band === undefined) throw new AppError('backoffice.nothing_changed');
    await setMarketBand(app, actor, id, values.price_band);
  },
};

/** The only row of a site-wide setting. */
export const SITE_TARGET_ID = 1;

const siteLinks: SettingDefinition<{ customer_service_url?: string | undefined }> = {
  key: 'site.links',
  scope: 'site',
  engine: false,
  fields: [{ name: 'customer_service_url', type: 'url' }],
  // An empty text clears the link (so not `optional`, which reads an empty field as absent).
  schema: z.object({ customer_service_url: emptyOr(httpsUrl()).optional() }).strict(),
  rows: async (app) => [
    {
      target_id: SITE_TARGET_ID,
      target: 'site',
      values: { ...(await readSiteSettings(app.store)) },
    },
  ],
  apply: async (app, actor, id, values) => {
    if (id !== SITE_TARGET_ID) throw new AppError('backoffice.setting_unknown');
    await updateSiteSettings(app.store, actor, values);
  },
};

/** An empty text (clears a setting), or what `schema` accepts. */
function emptyOr<S extends z.ZodType<string>>(schema: S) {
  return z.union([z.literal(''), schema]);
}

export const SETTINGS: readonly SettingDefinition[] = [
  marketFees as unknown as SettingDefinition,
  marketDisplay as unknown as SettingDefinition,
  currencyWithdrawal as unknown as SettingDefinition,
  marketMaker as unknown as SettingDefinition,
  siteLinks as unknown as SettingDefinition,
  marketPriceBand as unknown as SettingDefinition,
];

export function findSetting(key: string): SettingDefinition | undefined {
  return SETTINGS.find((definition) => definition.key === key);
}

/** The words a start-up setting can take, with their English text. */
const ENVIRONMENT_WORDS: Record<EnvironmentWord, string> = {
  on: 'on',
  off: 'off',
  yes: 'yes',
  no: 'no',
  set: 'set',
  not_set: 'not set',
  not_used: 'not used',
  sandbox: 'sandbox',
  custody_provider: 'custody provider',
  configured: 'configured',
  development_seed: 'development seed',
  dev_outbox: 'dev outbox',
  smtp: 'SMTP',
  sms_gateway: 'SMS gateway',
  embedded: 'embedded (PGlite)',
  postgresql: 'PostgreSQL',
};

/**
 * The configuration read at start that decides how the exchange behaves, as an operator checks it. Secrets
 * (keys, passwords, connection strings) are reported only as set or not set.
 */
export function environmentSettings(
  config: Config,
  live: FastifyInstance['marketLive'],
): EnvironmentSetting[] {
  const word = (name: string, variable: string, code: EnvironmentWord): EnvironmentSetting => ({
    name,
    variable,
    value: ENVIRONMENT_WORDS[code],
    value_code: code,
  });
  const set = (value: unknown): EnvironmentWord => (value === undefined || value === '' ? 'not_set' : 'set');
  return [
    {
      name: 'price_source',
      variable: 'PRICE_SOURCE',
      value: (live?.sources.map((source) => source.name) ?? config.priceSources).join(','),
    },
    word('market_maker', 'MARKET_MAKER', config.marketMaker ? 'on' : 'off'),
    // Unset (every real start): the simulator's steps come from the operating system's random source.
    config.seed === undefined
      ? word('seed', 'SEED', 'not_set')
      : { name: 'seed', variable: 'SEED', value: String(config.seed) },
    word('custody', 'CUSTODY_API_URL', config.custodyApiUrl === undefined ? 'sandbox' : 'custody_provider'),
    word('custody_api_key', 'CUSTODY_API_KEY', set(config.custodyApiKey)),
    word('deposit_keys', 'DEPOSIT_XPUBS', config.depositXpubs ? 'configured' : 'development_seed'),
    { name: 'flash_pairs', variable: 'FLASH_PAIRS', value: config.flashPairs },
    {
      name: 'flash_fee',
      variable: 'FLASH_FEE_PERCENT',
      value: `${formatDecimal(BigInt(config.flashFeePpm), 4, { trim: true })} %`,
    },
    word('invite_code_required', 'INVITE_CODE_REQUIRED', config.inviteCodeRequired ? 'yes' : 'no'),
    { name: 'session_hours', variable: 'SESSION_TTL_HOURS', value: String(config.sessionTtlHours) },
    word('email', 'SMTP_URL', config.smtpUrl === undefined ? 'dev_outbox' : 'smtp'),
    word('sms', 'SMS_URL', config.smsUrl === undefined ? 'dev_outbox' : 'sms_gateway'),
    word('database', 'DATABASE_URL', config.databaseUrl === undefined ? 'embedded' : 'postgresql'),
    word('redis', 'REDIS_URL', config.redisUrl === undefined ? 'not_used' : 'set'),
  ];
}
