// The calls of the specifications whose products are not built yet: leveraged trading (all but the
// trading page's read, /lever/deal), seconds contracts, ICO, cloud mining, defi staking and the IEPN page
// (the acceptor list is built by the P2P area). Each answers HTTP 200 {type:'error'} with a translated "not available yet", as
// GET or POST and with or without a token, so that a template-era client shows that message instead of
// failing on a 404. A call an area has built meanwhile keeps its own route: this area is registered last
// and skips every path already routed.
import type { FastifyInstance, HTTPMethods } from 'fastify';
import { apiError, translate } from '@fairex/shared';

export const NOT_BUILT_PATHS: readonly string[] = [
  '/lever/submit',
  '/lever/my_trade',
  '/lever/close',
  '/lever/cancel',
  '/lever/setstop',
  '/lever/batch_close',
  '/microtrade/seconds',
  '/microtrade/payable_currencies',
  '/microtrade/submit',
  '/microtrade/lists',
  '/iepn',
  '/ico/balance',
  '/ico/list',
  '/ico/buy',
  '/miner/balance',
  '/miner/list',
  '/miner/record',
  '/miner/buy',
  '/miner/info',
  '/miner/earnings',
  '/miner/extract',
  '/miner/extract_record',
  '/defi/total',
  '/defi/balance',
  '/defi/buy',
  '/defi/list',
  '/defi/record',
];

const METHODS: HTTPMethods[] = ['GET', 'POST'];

export default async function notBuiltRoutes(app: FastifyInstance): Promise<void> {
  for (const url of NOT_BUILT_PATHS) {
    const free = METHODS.filter((method) => !app.hasRoute({ method, url: `${app.prefix}${url}` }));
    if (free.length === 0) continue;
    app.route({
      method: free,
      url,
      handler: async (request) => apiError(translate(request.lang, 'common.not_available')),
    });
  }
}
