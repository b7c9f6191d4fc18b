// Site calls the template's clients make:
//   GET /api/custorm            the customer-service link set in the back office (Settings, site.links);
//                               {type:'error'} with a translated "not set" until one is set
//   GET /qr_create?text=        the text as a PNG QR code (also under /api), at most QR_TEXT_MAX characters;
//                               a missing, empty or longer text gets a translated {type:'error'}
import type { FastifyInstance } from 'fastify';
import QRCode from 'qrcode';
import { apiError, ok } from '@fairex/shared';
import { QR_TEXT_MAX, qrInput } from '@fairex/shared/api/site.ts';
import { readSiteSettings } from '../../../admin/site-settings.ts';
import { route } from '../../../http/route.ts';

export { QR_TEXT_MAX };
const QR_WIDTH_PX = 256;

/** The QR route at `url` of `app` (the root, and under /api). */
export function qrRoute(app: FastifyInstance, url: string): void {
  route(app, {
    method: 'GET',
    url,
    input: qrInput,
    handler: async ({ input, reply }) => {
      const png = await QRCode.toBuffer(input.text, {
        type: 'png',
        errorCorrectionLevel: 'M',
        margin: 2,
        width: QR_WIDTH_PX,
      });
      return reply.type('image/png').header('cache-control', 'public, max-age=86400').send(png);
    },
  });
}

export default async function siteRoutes(app: FastifyInstance): Promise<void> {
  route(app, {
    method: 'GET',
    url: '/custorm',
    handler: async ({ t }) => {
      const { customer_service_url: url } = await readSiteSettings(app.store);
      return url === '' ? apiError(t('site.customer_service_unset')) : ok(url);
    },
  });
  qrRoute(app, '/qr_create');
}
