// Wallet calls (spec 01 section 7, spec 02 section 7), all for a logged-in user:
//   GET|POST /api/wallet/list              the six wallets with balances, values and totals
//   GET      /api/wallet/currencylist      currencies a transfer can move
//   POST     /api/wallet/detail            type (wallet), currency -> that wallet's balance
//   POST     /api/wallet/change            from_field, to_field (or the older type 1 or 2), currency_id, number:
//                                          move between wallets
//   POST     /api/wallet/change_list       the last 20 transfers (message.list)
//   POST     /api/wallet/hzhistory         transfers, paged
//   POST     /api/wallet/legal_log         currency, type (1580 deposits, or a wallet name), page
//   POST     /api/wallet/flashAgainstList  legal currency, coins with prices, fee percent
//   POST     /api/wallet/myFlashAgainstList  the user's flash exchanges, paged
//   POST     /api/wallet/flashAgainst      type (0 legal->coin, 1 coin->legal), coin, number
//   POST     /api/wallet/get_in_address    currency, type (chain) -> the user's deposit address
//   POST     /api/wallet/in_list           deposit records, paged
//   POST     /api/wallet/get_info          currency -> balance, fee, minimum, chains
//   POST     /api/wallet/out               currency, number, address or address_id, type (chain), totp_code
//   POST     /api/wallet/out_list          withdrawal records, paged
//   POST     /api/wallet/get_address       currency -> the address book
//   POST     /api/wallet/addaddress        currency_id, address, notes, type (chain, optional)
//   POST     /api/wallet/deladdress        address_id
//   GET      /api/currency/user_currency_list  currencies a transfer moves, their flags, the user's balances
// Administrator calls for deposits, withdrawals and the house's inventory are in admin.ts.
import type { FastifyInstance } from 'fastify';
import type { DepositAddress, WalletListReply } from '@fairex/shared';
import {
  addAddressInput,
  deleteAddressInput,
  depositAddressInput,
  fieldName,
  flashExchangeInput,
  noInput,
  ok,
  walletCurrencyFilterInput,
  walletCurrencyInput,
  walletDetailInput,
  walletLogInput,
  walletPageInput,
  walletRecordsInput,
  walletTransferInput,
  withdrawInput,
} from '@fairex/shared';
import { REAL_NAME_APPROVED, route } from '../../../http/route.ts';
import { walletOverview } from '../../../wallets/valuation.ts';
import { TRANSFER_TYPES, walletOf } from '../../../wallets/transfers.ts';
import { AppError } from '../../../http/app-error.ts';
import walletAdminRoutes from './admin.ts';

/** Record lists show the last 20 (spec 02 section 9). */
export const RECORDS_PAGE_SIZE = 20;
/** The deposit-record type code of legal_log (spec 01 section 9). */
export const DEPOSIT_LOG_TYPE = '1580';

export default async function walletRoutes(app: FastifyInstance): Promise<void> {
  // Without the engine (tests of the HTTP plumbing alone) there are no balances to serve.
  if (!app.hasDecorator('runner')) return;
  const services = app.wallets;
  const engine = app.runner.engine;

  route(app, {
    method: ['GET', 'POST'],
    url: '/wallet/list',
    auth: 'required',
    input: noInput,
    handler: async ({ user }) => {
      const overview = await walletOverview({
        engine,
        catalog: services.catalog,
        prices: services.prices,
        userId: user.id,
      });
      return ok({ ...overview, list: overview.change_wallet.balance } satisfies WalletListReply);
    },
  });

  route(app, {
    method: ['GET', 'POST'],
    url: '/wallet/currencylist',
    auth: 'required',
    input: noInput,
    handler: async () => ok(await services.transfers.currencies()),
  });

  route(app, {
    method: ['GET', 'POST'],
    url: '/currency/user_currency_list',
    auth: 'required',
    input: noInput,
    handler: async ({ user }) => ok(await services.transfers.userCurrencies(user.id)),
  });

  route(app, {
    method: 'POST',
    url: '/wallet/detail',
    auth: 'required',
    input: walletDetailInput,
    handler: async ({ input, user }) =>
      ok(await services.transfers.detail(user.id, walletOf(input.type), input.currency)),
  });

  route(app, {
    method: 'POST',
    url: '/wallet/change',
    auth: 'required',
    input: walletTransferInput,
    handler: async ({ input, user, t, lang }) => {
      // from_field and to_field decide when either is given; the older clients' type only without them.
      const named = input.from_field !== undefined || input.to_field !== undefined;
      const older = named || input.type === undefined ? undefined : TRANSFER_TYPES[input.type];
      const from = older?.from ?? input.from_field;
      const to = older?.to ?? input.to_field;
      if (from === undefined) throw new AppError('validation.required', { field: t('field.from_field') });
      if (to === undefined) throw new AppError('validation.required', { field: t('field.to_field') });
      await services.transfers.transfer({
        userId: user.id,
        currencyId: input.currency_id,
        from,
        to,
        number: input.number,
        label: fieldName(lang, 'number'),
      });
      return ok(t('wallet.transfer_done'));
    },
  });

  route(app, {
    method: 'POST',
    url: '/wallet/change_list',
    auth: 'required',
    input: walletCurrencyFilterInput,
    handler: async ({ input, user, lang }) => {
      const page = await services.records.transfers({
        userId: user.id,
        lang,
        page: 1,
        perPage: RECORDS_PAGE_SIZE,
        ...(input.currency === undefined ? {} : { currencyId: input.currency }),
      });
      return ok({ list: page.data });
    },
  });

  route(app, {
    method: 'POST',
    url: '/wallet/hzhistory',
    auth: 'required',
    input: walletRecordsInput,
    handler: async ({ input, user, lang }) =>
      ok(
        await services.records.transfers({
          userId: user.id,
          lang,
          page: input.page ?? 1,
          perPage: RECORDS_PAGE_SIZE,
          ...(input.currency === undefined ? {} : { currencyId: input.currency }),
        }),
      ),
  });

  route(app, {
    method: 'POST',
    url: '/wallet/legal_log',
    auth: 'required',
    input: walletLogInput,
    handler: async ({ input, user, lang }) => {
      const pageNumber = input.page ?? 1;
      const result =
        input.type === DEPOSIT_LOG_TYPE
          ? await services.deposits.records(user.id, input.currency, pageNumber, RECORDS_PAGE_SIZE)
          : await services.records.ledger({
              userId: user.id,
              lang,
              page: pageNumber,
              perPage: RECORDS_PAGE_SIZE,
              wallet: walletOf(input.type),
              currencyId: input.currency,
            });
      const { data, ...paging } = result;
      return ok({ list: data, ...paging });
    },
  });

  route(app, {
    method: 'POST',
    url: '/wallet/flashAgainstList',
    auth: 'required',
    input: noInput,
    handler: async () => ok(await services.flash.list()),
  });

  route(app, {
    method: 'POST',
    url: '/wallet/myFlashAgainstList',
    auth: 'required',
    input: walletPageInput,
    handler: async ({ input, user }) =>
      ok(await services.flash.records(user.id, input.page ?? 1, RECORDS_PAGE_SIZE)),
  });

  route(app, {
    method: 'POST',
    url: '/wallet/flashAgainst',
    auth: 'required',
    input: flashExchangeInput,
    handler: async ({ input, user, t, lang }) => {
      const record = await services.flash.exchange(
        user.id,
        input.type,
        input.coin,
        input.number,
        fieldName(lang, 'number'),
      );
      return ok({ message: t('wallet.flash_done'), record });
    },
  });

  route(app, {
    method: 'POST',
    url: '/wallet/get_in_address',
    auth: 'required',
    input: depositAddressInput,
    handler: async ({ input, user }) => {
      const view = await services.deposits.address(user.id, input.currency, input.type);
      return ok({
        currency: { id: view.currency.id, name: view.currency.code },
        address: view.address,
        type: view.chainType,
        chain: view.chainCode,
        network: view.network,
        confirmations: view.confirmations,
        chains: view.chains,
        development: services.keys.source === 'development',
      } satisfies DepositAddress);
    },
  });

  route(app, {
    method: 'POST',
    url: '/wallet/in_list',
    auth: 'required',
    input: walletRecordsInput,
    handler: async ({ input, user }) =>
      ok(await services.deposits.records(user.id, input.currency, input.page ?? 1, RECORDS_PAGE_SIZE)),
  });

  route(app, {
    method: 'POST',
    url: '/wallet/get_info',
    auth: 'required',
    input: walletCurrencyInput,
    handler: async ({ input, user }) =>
      ok({
        ...(await services.withdrawals.info(user.id, input.currency)),
        // POST /wallet/out is a verified route: the page asks for the real name before the form is filled.
        real_name_required: user.reviewStatus !== REAL_NAME_APPROVED,
      }),
  });

  route(app, {
    method: 'POST',
    url: '/wallet/out',
    auth: 'verified',
    input: withdrawInput,
    handler: async ({ input, user, t, lang, request }) => {
      await services.withdrawals.request({
        label: fieldName(lang, 'number'),
        userId: user.id,
        currencyId: input.currency,
        chainType: input.type,
        address: input.address,
        addressId: input.address_id,
        number: input.number,
        totpCode: input.totp_code,
        code: input.code,
        ip: request.ip,
      });
      return ok(t('wallet.withdrawal_requested'));
    },
  });

  route(app, {
    method: 'POST',
    url: '/wallet/out_list',
    auth: 'required',
    input: walletRecordsInput,
    handler: async ({ input, user }) =>
      ok(await services.withdrawals.records(user.id, input.currency, input.page ?? 1, RECORDS_PAGE_SIZE)),
  });

  route(app, {
    method: 'POST',
    url: '/wallet/get_address',
    auth: 'required',
    input: walletCurrencyInput,
    handler: async ({ input, user }) => ok(await services.book.list(user.id, input.currency)),
  });

  route(app, {
    method: 'POST',
    url: '/wallet/addaddress',
    auth: 'required',
    input: addAddressInput,
    handler: async ({ input, user, t, request }) => {
      const entry = await services.book.add({
        userId: user.id,
        currencyId: input.currency_id,
        address: input.address,
        notes: input.notes ?? '',
        ...(input.type === undefined ? {} : { chainType: input.type }),
        verify: () =>
          services.withdrawals.secondFactor.verify(user.id, {
            totpCode: input.totp_code,
            code: input.code,
            ip: request.ip,
          }),
      });
      return ok({ message: t('wallet.address_added'), address: entry });
    },
  });

  // What protects withdrawals and new addresses (issue 21): the authenticator, or codes by e-mail or SMS.
  route(app, {
    method: ['GET', 'POST'],
    url: '/wallet/protection',
    auth: 'required',
    handler: async ({ user }) => ok(await services.withdrawals.secondFactor.method(user.id)),
  });

  // Sends the code that adding an address or withdrawing needs, when no authenticator protects the account.
  route(app, {
    method: 'POST',
    url: '/wallet/security_code',
    auth: 'required',
    input: noInput,
    handler: async ({ user, t, lang, request }) => {
      const sent = await services.withdrawals.secondFactor.send(user.id, request.ip, lang);
      return { type: 'ok', message: t('wallet.code_sent', { destination: sent.destination }), ...sent };
    },
  });

  route(app, {
    method: 'POST',
    url: '/wallet/deladdress',
    auth: 'required',
    input: deleteAddressInput,
    handler: async ({ input, user, t }) => {
      await services.book.remove(user.id, input.address_id);
      return ok(t('wallet.address_deleted'));
    },
  });

  await app.register(walletAdminRoutes);
}
