// Serves the built web app. Any GET outside /api and /socket.io that is not a file gets index.html, so the
// client-side router can handle deep links; unknown /api paths get the translated 404 envelope. Without a
// built app the server still runs and says how to build it.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { apiError } from '@fairex/shared';

export interface WebAppOptions {
  webDist: string;
}

export const WEB_APP_MISSING_TEXT =
  'The web app has not been built, so there is nothing to show here yet.\n' +
  'Build it with "npm run build:web" (or start with "npm start", which builds it first), ' +
  'or point WEB_DIST at a folder holding a built app.\n' +
  'The API under /api works without it.\n';

function isHistoryRoute(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const path = request.url.split('?')[0] ?? '/';
  if (path === '/api' || path.startsWith('/api/') || path.startsWith('/socket.io')) return false;
  // A last segment with a dot names a file (/assets/x.js); a missing file is a 404, not the app.
  const last = path.slice(path.lastIndexOf('/') + 1);
  return !last.includes('.');
}

async function webAppPlugin(app: FastifyInstance, options: WebAppOptions): Promise<void> {
  const built = existsSync(join(options.webDist, 'index.html'));
  if (built) {
    await app.register(fastifyStatic, {
      root: options.webDist,
      prefix: '/',
      index: 'index.html',
      setHeaders: (reply, path) => {
        // Vite names built assets by content hash, so they never change; index.html always may.
        const immutable = path.includes(`${join(options.webDist, 'assets')}`);
        reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  } else {
    app.log.warn({ webDist: options.webDist }, 'web app not built; serving the API only');
  }

  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    if (isHistoryRoute(request)) {
      if (!built) return reply.status(503).type('text/plain; charset=utf-8').send(WEB_APP_MISSING_TEXT);
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.status(404).send(apiError(request.t('error.not_found')));
  });
}

export default fp(webAppPlugin, { name: 'web-app', dependencies: ['i18n'] });
