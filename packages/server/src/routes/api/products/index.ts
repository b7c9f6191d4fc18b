// Token sales, cloud mining and defi staking (spec 02 sections 2.6-2.8, 7; spec 03 section 8;
// docs/products.md). The area's plugin (products/plugin.ts) builds the service and runs the accrual job;
// these routes only validate, call and answer.
// - GET  /iepn                   the IEPN sale: total, start, end, price, issued (yfx) and remaining (sy)
// - POST /ico/balance            the user's ico wallet (currency, default the sales' pay currency)
// - POST /ico/list               sales: status -1 on sale, 1 the user's (login), 2 ended
// - POST /ico/buy                id, number: whole tokens
// - POST /miner/balance          the user's miner wallet
// - POST /miner/list             miners: status -1 on sale, 2 ended (1: the user's rents, as /miner/record)
// - POST /miner/record           the user's rents: status 1 running, 2 finished
// - POST /miner/buy              id, number: whole units
// - POST /miner/info             id (a rent): its header
// - POST /miner/earnings         id: the rent's daily earnings lines, newest first
// - POST /miner/extract          id, number: earnings into the miner wallet
// - POST /miner/extract_record   id: the rent's extractions
// - GET  /defi/total             the defi wallet's and the stakes' value in USDT
// - POST /defi/balance           currency: the user's defi wallet
// - POST /defi/list              products: status -1 running, 2 ended (1: the user's, as /defi/record)
// - POST /defi/record            the user's stakes by product: status 1 running, 2 ended
// - POST /defi/buy               id, number: whole coins
// - POST /defi/exit              id (a stake): leave early where its policy allows
import type { FastifyInstance } from 'fastify';
import {
  defiBalanceInput,
  defiBuyInput,
  defiExitInput,
  defiListInput,
  defiRecordInput,
  icoBalanceInput,
  icoBuyInput,
  icoListInput,
  minerBalanceInput,
  minerBuyInput,
  minerExtractInput,
  minerHoldingInput,
  minerListInput,
  noInput,
  ok,
} from '@fairex/shared';
import { route } from '../../../http/route.ts';

export default async function productsRoutes(app: FastifyInstance): Promise<void> {
  if (!app.hasDecorator('products')) return;
  const products = app.products.service;

  route(app, { method: 'GET', url: '/iepn', auth: 'optional', handler: () => ok(products.iepn()) });

  route(app, {
    method: 'POST',
    url: '/ico/balance',
    auth: 'required',
    input: icoBalanceInput,
    handler: ({ input, user }) => ok(products.icoBalance(user.id, input.currency)),
  });
  route(app, {
    method: 'POST',
    url: '/ico/list',
    auth: 'optional',
    input: icoListInput,
    handler: ({ input, user, lang }) => ok(products.icoList(user?.id ?? null, input.status ?? -1, lang)),
  });
  route(app, {
    method: 'POST',
    url: '/ico/buy',
    auth: 'required',
    input: icoBuyInput,
    handler: async ({ input, user, lang }) =>
      ok(await products.icoBuy(user.id, input.id, input.number, lang)),
  });

  route(app, {
    method: 'POST',
    url: '/miner/balance',
    auth: 'required',
    input: minerBalanceInput,
    handler: ({ input, user }) => ok(products.minerBalance(user.id, input.currency)),
  });
  route(app, {
    method: 'POST',
    url: '/miner/list',
    auth: 'optional',
    input: minerListInput,
    handler: ({ input, user, lang }) => ok(products.minerList(user?.id ?? null, input.status ?? -1, lang)),
  });
  route(app, {
    method: 'POST',
    url: '/miner/record',
    auth: 'required',
    input: minerListInput,
    handler: ({ input, user, lang }) => ok(products.minerRecord(user.id, input.status ?? 1, lang)),
  });
  route(app, {
    method: 'POST',
    url: '/miner/buy',
    auth: 'required',
    input: minerBuyInput,
    handler: async ({ input, user, lang }) =>
      ok(await products.minerBuy(user.id, input.id, input.number, lang)),
  });
  route(app, {
    method: 'POST',
    url: '/miner/info',
    auth: 'required',
    input: minerHoldingInput,
    handler: ({ input, user, lang }) => ok(products.minerInfo(user.id, input.id, lang)),
  });
  route(app, {
    method: 'POST',
    url: '/miner/earnings',
    auth: 'required',
    input: minerHoldingInput,
    handler: async ({ input, user }) => ok(await products.minerEarnings(user.id, input.id)),
  });
  route(app, {
    method: 'POST',
    url: '/miner/extract',
    auth: 'required',
    input: minerExtractInput,
    handler: async ({ input, user, lang }) =>
      ok(await products.minerExtract(user.id, input.id, input.number, lang)),
  });
  route(app, {
    method: 'POST',
    url: '/miner/extract_record',
    auth: 'required',
    input: minerHoldingInput,
    handler: async ({ input, user }) => ok(await products.minerExtractRecord(user.id, input.id)),
  });

  route(app, {
    method: 'GET',
    url: '/defi/total',
    auth: 'required',
    input: noInput,
    handler: ({ user }) => ok(products.defiTotal(user.id)),
  });
  route(app, {
    method: 'POST',
    url: '/defi/balance',
    auth: 'required',
    input: defiBalanceInput,
    handler: ({ input, user }) => ok(products.defiBalance(user.id, input.currency)),
  });
  route(app, {
    method: 'POST',
    url: '/defi/list',
    auth: 'optional',
    input: defiListInput,
    handler: async ({ input, user, lang }) =>
      ok(await products.defiList(user?.id ?? null, input.status ?? -1, lang)),
  });
  route(app, {
    method: 'POST',
    url: '/defi/record',
    auth: 'required',
    input: defiRecordInput,
    handler: async ({ input, user, lang }) => ok(await products.defiRecord(user.id, input.status ?? 1, lang)),
  });
  route(app, {
    method: 'POST',
    url: '/defi/buy',
    auth: 'required',
    input: defiBuyInput,
    handler: async ({ input, user, lang }) =>
      ok(await products.defiBuy(user.id, input.id, input.number, lang)),
  });
  route(app, {
    method: 'POST',
    url: '/defi/exit',
    auth: 'required',
    input: defiExitInput,
    handler: async ({ input, user, lang }) => ok(await products.defiExit(user.id, input.id, lang)),
  });
}
