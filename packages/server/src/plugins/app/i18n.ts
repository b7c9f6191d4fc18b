// Sets request.lang from the `lang` query parameter or header, and request.t to translate into it.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Language, MessageKey, MessageParams } from '@fairex/shared';
import { DEFAULT_LANGUAGE, translate } from '@fairex/shared';
import { requestLanguage } from '../../http/language.ts';

declare module 'fastify' {
  interface FastifyRequest {
    lang: Language;
    t(key: MessageKey, params?: MessageParams): string;
  }
}

async function i18nPlugin(app: FastifyInstance): Promise<void> {
  app.decorateRequest('lang', DEFAULT_LANGUAGE);
  app.decorateRequest('t', function (this: FastifyRequest, key: MessageKey, params?: MessageParams) {
    return translate(this.lang, key, params);
  });
  app.addHook('onRequest', async (request) => {
    request.lang = requestLanguage(request);
  });
}

export default fp(i18nPlugin, { name: 'i18n' });
