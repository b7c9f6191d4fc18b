// Currencies, pairs and the settings pattern:
//   GET  /api/backoffice/currencies           every currency of the catalogue, and whether the engine has it
//   POST /api/backoffice/currencies/create    id, code, name, scale, udun_id, withdraw_min, withdraw_fee, ...
//   POST /api/backoffice/currencies/update    id and the fields to change
//   GET  /api/backoffice/markets              every pair with its engine view and index price; the price
//                                             source and the market maker's settings
//   POST /api/backoffice/markets/create       id, base and quote currency, tick, lot, minimums, fees, display
//   POST /api/backoffice/markets/update       id and the fields to change (fees reach the engine by command)
//   GET  /api/backoffice/settings             the run-time settings (SETTINGS) and the environment
//   POST /api/backoffice/settings/apply       key, target_id, values
import type { FastifyInstance } from 'fastify';
import {
  currencyCreateInput,
  currencyUpdateInput,
  fieldName,
  issueMessage,
  marketCreateInput,
  marketUpdateInput,
  ok,
  settingApplyInput,
} from '@fairex/shared';
import type { CurrenciesReply, MarketsReply, SettingLine, SettingsReply } from '@fairex/shared';
import {
  addCurrency,
  addMarket,
  listCurrencies,
  listMarkets,
  updateCurrency,
  updateMarket,
} from '../../../admin/catalog.ts';
import { environmentSettings, findSetting, SETTINGS } from '../../../admin/settings.ts';
import { AppError } from '../../../http/app-error.ts';
import type { AdminRoute } from './guard.ts';

export async function catalogRoutes(app: FastifyInstance, adminRoute: AdminRoute): Promise<void> {
  const wallets = app.wallets;

  /** Caches of other modules that hold catalogue rows: the wallet catalogue and market data's market list. */
  async function catalogueChanged(): Promise<void> {
    wallets.catalog.invalidate();
    if (app.hasDecorator('marketData')) await app.marketData.catalog.reload();
  }

  adminRoute({
    method: 'GET',
    url: '/backoffice/currencies',
    access: 'catalog.read',
    handler: async () => ok<CurrenciesReply>({ list: await listCurrencies(app.store, app.engine) }),
  });

  adminRoute({
    method: 'POST',
    url: '/backoffice/currencies/create',
    access: 'catalog.manage',
    input: currencyCreateInput,
    handler: async ({ input, actor, t }) => {
      await addCurrency(app.store, app.runner, actor, {
        id: input.id,
        code: input.code,
        name: input.name,
        scale: input.scale,
        udunId: input.udun_id,
        withdrawMin: input.withdraw_min,
        withdrawFee: input.withdraw_fee,
        displayOrder: input.display_order ?? input.id,
        descriptions: input.descriptions ?? {},
      });
      await catalogueChanged();
      return ok(t('backoffice.saved'));
    },
  });

  adminRoute({
    method: 'POST',
    url: '/backoffice/currencies/update',
    access: 'catalog.manage',
    input: currencyUpdateInput,
    handler: async ({ input, actor }) => {
      const currency = await updateCurrency(app.store, app.engine, actor, input.id, {
        name: input.name,
        udunId: input.udun_id,
        withdrawMin: input.withdraw_min,
        withdrawFee: input.withdraw_fee,
        displayOrder: input.display_order,
        isEnabled: input.is_enabled,
        descriptions: input.descriptions,
      });
      await catalogueChanged();
      return ok(currency);
    },
  });

  adminRoute({
    method: 'GET',
    url: '/backoffice/markets',
    access: 'catalog.read',
    handler: async () => {
      const live = app.hasDecorator('marketLive') ? app.marketLive : undefined;
      return ok<MarketsReply>({
        list: await listMarkets(app.store, app.engine),
        price_source: (live?.sources.map((source) => source.name) ?? app.config.priceSources).join(','),
        price_source_live: live !== undefined,
        market_maker: live?.maker === undefined ? null : live.maker.config,
      });
    },
  });

  adminRoute({
    method: 'POST',
    url: '/backoffice/markets/create',
    access: 'catalog.manage',
    input: marketCreateInput,
    handler: async ({ input, actor, t }) => {
      await addMarket(app.store, app.runner, actor, {
        id: input.id,
        baseCurrencyId: input.base_currency_id,
        quoteCurrencyId: input.quote_currency_id,
        priceScale: input.price_scale,
        tickSize: input.tick_size,
        lotSize: input.lot_size,
        minSize: input.min_size,
        minNotional: input.min_notional ?? '0',
        makerFee: input.maker_fee,
        takerFee: input.taker_fee,
        isDisplay: input.is_display ?? true,
        displayOrder: input.display_order ?? input.id,
      });
      await catalogueChanged();
      return ok(t('backoffice.saved'));
    },
  });

  adminRoute({
    method: 'POST',
    url: '/backoffice/markets/update',
    access: 'catalog.manage',
    input: marketUpdateInput,
    handler: async ({ input, actor }) => {
      const market = await updateMarket(app.store, app.runner, actor, input.id, {
        makerFee: input.maker_fee,
        takerFee: input.taker_fee,
        isDisplay: input.is_display,
        displayOrder: input.display_order,
        minNotional: input.min_notional,
      });
      await catalogueChanged();
      return ok(market);
    },
  });

  adminRoute({
    method: 'GET',
    url: '/backoffice/settings',
    access: 'catalog.read',
    handler: async () => {
      const settings: SettingLine[] = [];
      for (const definition of SETTINGS) {
        settings.push({
          key: definition.key,
          scope: definition.scope,
          engine: definition.engine,
          fields: definition.fields,
          rows: await definition.rows(app),
        });
      }
      const live = app.hasDecorator('marketLive') ? app.marketLive : undefined;
      return ok<SettingsReply>({ settings, environment: environmentSettings(app.config, live) });
    },
  });

  adminRoute({
    method: 'POST',
    url: '/backoffice/settings/apply',
    access: 'catalog.manage',
    input: settingApplyInput,
    handler: async ({ input, actor, lang, t }) => {
      const definition = findSetting(input.key);
      if (definition === undefined) throw new AppError('backoffice.setting_unknown');
      const parsed = definition.schema.safeParse(input.values);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        if (issue === undefined) throw new AppError('validation.body');
        const message = issueMessage(issue);
        throw new AppError(message.key, {
          ...message.params,
          field: fieldName(lang, message.field || 'values'),
        });
      }
      await definition.apply(app, actor, input.target_id, parsed.data);
      await catalogueChanged();
      return ok(t('backoffice.saved'));
    },
  });
}
