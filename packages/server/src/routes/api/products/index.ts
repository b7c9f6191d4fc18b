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
import type { z } from 'zod';
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
import { route, type InputOf, type RouteContext, type UserFor } from '../../../http/route.ts';

type Answer<S extends z.ZodType, A extends 'required' | 'optional'> = (
  context: RouteContext<InputOf<S>, UserFor<A>>,
) => unknown;

/**
 * The area's calls all answer `ok(...)` with what the service returns: `signedIn` ones need a login,
 * `anyone` ones take it when it comes (a visitor sees the public lists).
 */
function productCalls(app: FastifyInstance) {
  const declare =
    <A extends 'required' | 'optional'>(auth: A) =>
    <S extends z.ZodType>(url: string, input: S, answer: Answer<S, A>, method: 'GET' | 'POST' = 'POST') =>
      route(app, { method, url, auth, input, handler: async (context) => ok(await answer(context)) });
  return { signedIn: declare('required'), anyone: declare('optional') };
}

export default async function productsRoutes(app: FastifyInstance): Promise<void> {
  if (!app.hasDecorator('products')) return;
  const products = app.products.service;
  const { signedIn, anyone } = productCalls(app);

  anyone('/iepn', noInput, () => products.iepn(), 'GET');

  signedIn('/ico/balance', icoBalanceInput, ({ input, user }) =>
    products.icoBalance(user.id, input.currency),
  );
  anyone('/ico/list', icoListInput, ({ input, user, lang }) =>
    products.icoList(user?.id ?? null, input.status ?? -1, lang),
  );
  signedIn('/ico/buy', icoBuyInput, ({ input, user, lang }) =>
    products.icoBuy(user.id, input.id, input.number, lang),
  );

  signedIn('/miner/balance', minerBalanceInput, ({ input, user }) =>
    products.minerBalance(user.id, input.currency),
  );
  anyone('/miner/list', minerListInput, ({ input, user, lang }) =>
    products.minerList(user?.id ?? null, input.status ?? -1, lang),
  );
  signedIn('/miner/record', minerListInput, ({ input, user, lang }) =>
    products.minerRecord(user.id, input.status ?? 1, lang),
  );
  signedIn('/miner/buy', minerBuyInput, ({ input, user, lang }) =>
    products.minerBuy(user.id, input.id, input.number, lang),
  );
  signedIn('/miner/info', minerHoldingInput, ({ input, user, lang }) =>
    products.minerInfo(user.id, input.id, lang),
  );
  signedIn('/miner/earnings', minerHoldingInput, ({ input, user }) =>
    products.minerEarnings(user.id, input.id),
  );
  signedIn('/miner/extract', minerExtractInput, ({ input, user, lang }) =>
    products.minerExtract(user.id, input.id, input.number, lang),
  );
  signedIn('/miner/extract_record', minerHoldingInput, ({ input, user }) =>
    products.minerExtractRecord(user.id, input.id),
  );

  signedIn('/defi/total', noInput, ({ user }) => products.defiTotal(user.id), 'GET');
  signedIn('/defi/balance', defiBalanceInput, ({ input, user }) =>
    products.defiBalance(user.id, input.currency),
  );
  anyone('/defi/list', defiListInput, ({ input, user, lang }) =>
    products.defiList(user?.id ?? null, input.status ?? -1, lang),
  );
  signedIn('/defi/record', defiRecordInput, ({ input, user, lang }) =>
    products.defiRecord(user.id, input.status ?? 1, lang),
  );
  signedIn('/defi/buy', defiBuyInput, ({ input, user, lang }) =>
    products.defiBuy(user.id, input.id, input.number, lang),
  );
  signedIn('/defi/exit', defiExitInput, ({ input, user, lang }) =>
    products.defiExit(user.id, input.id, lang),
  );
}
