// Every /api area, one folder each under routes/api/<area>. Each area declares its paths below /api. Route
// files only consume the services the area plugins decorated the app with (registered before, in app.ts).
import type { FastifyInstance } from 'fastify';
import accountRoutes from './api/account/index.ts';
import adminRoutes from './api/admin/index.ts';
import apiKeyRoutes from './api/api-keys/index.ts';
import backofficeRoutes from './api/backoffice/index.ts';
import currencyRoutes from './api/currency/index.ts';
import custodyRoutes from './api/custody/index.ts';
import healthRoutes from './api/health/index.ts';
import leverRoutes from './api/lever/index.ts';
import logRoutes from './api/log/index.ts';
import liabilitiesRoutes from './api/liabilities/index.ts';
import microtradeRoutes from './api/microtrade/index.ts';
import productsRoutes from './api/products/index.ts';
import newsRoutes from './api/news/index.ts';
import p2pRoutes from './api/p2p/index.ts';
import priceRoutes from './api/price/index.ts';
import quotationRoutes from './api/quotation/index.ts';
import safeRoutes from './api/safe/index.ts';
import siteRoutes, { qrRoute } from './api/site/index.ts';
import smsRoutes from './api/sms/index.ts';
import statsRoutes from './api/stats/index.ts';
import transactionRoutes from './api/transaction/index.ts';
import uploadRoutes from './api/upload/index.ts';
import userRoutes from './api/user/index.ts';
import walletRoutes from './api/wallet/index.ts';

const apiAreas = [
  healthRoutes,
  currencyRoutes,
  quotationRoutes,
  priceRoutes,
  logRoutes,
  transactionRoutes,
  newsRoutes,
  statsRoutes,
  userRoutes,
  smsRoutes,
  safeRoutes,
  uploadRoutes,
  adminRoutes,
  walletRoutes,
  accountRoutes,
  custodyRoutes,
  backofficeRoutes,
  siteRoutes,
  microtradeRoutes,
  productsRoutes,
  apiKeyRoutes,
  leverRoutes,
  p2pRoutes,
  liabilitiesRoutes,
];

export default async function routes(app: FastifyInstance): Promise<void> {
  for (const area of apiAreas) await app.register(area, { prefix: '/api' });
  // The template's clients also ask for QR codes outside /api.
  qrRoute(app, '/qr_create');
}
