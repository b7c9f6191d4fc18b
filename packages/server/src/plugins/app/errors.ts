// Every failure becomes the {type: 'error', message} envelope in the request language. Bad input gets a 4xx
// (or the 200 refusal of a route); only a fault of ours is a 500, logged with its stack and answered with a
// generic text: no stack trace, SQL or file path ever reaches the client.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { MessageKey } from '@fairex/shared';
import { apiError, fieldName, translate } from '@fairex/shared';
import { AppError } from '../../http/app-error.ts';
import { requestLanguage } from '../../http/language.ts';

const CLIENT_ERROR_KEYS: Record<string, MessageKey> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'error.unsupported_media_type',
  FST_ERR_CTP_INVALID_TYPE: 'error.unsupported_media_type',
  FST_ERR_CTP_BODY_TOO_LARGE: 'error.body_too_large',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'error.invalid_json',
  FST_ERR_CTP_INVALID_JSON_BODY: 'error.invalid_json',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'error.bad_request',
  FST_ERR_BAD_URL: 'error.bad_request',
  FST_ERR_NOT_FOUND: 'error.not_found',
};

function clientErrorKey(error: FastifyError, status: number): MessageKey {
  const known = error.code ? CLIENT_ERROR_KEYS[error.code] : undefined;
  if (known) return known;
  if (status === 400 && error instanceof SyntaxError) return 'error.invalid_json';
  if (status === 404) return 'error.not_found';
  if (status === 413) return 'error.body_too_large';
  if (status === 415) return 'error.unsupported_media_type';
  if (status === 429) return 'error.rate_limited';
  return 'error.bad_request';
}

export function handleError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  // Hooks may not have run (e.g. the URL itself was malformed), so the language is read again here.
  const lang = request.lang ?? safeLanguage(request);
  if (error instanceof AppError) {
    // A field named in the message is shown by its translated name ("Maker fee", "挂单手续费").
    const params =
      typeof error.params.field === 'string'
        ? { ...error.params, field: fieldName(lang, error.params.field) }
        : error.params;
    return reply.status(200).send({ type: error.type, message: translate(lang, error.key, params) });
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    request.log.info({ code: error.code, status }, 'request refused');
    return reply.status(status).send(apiError(translate(lang, clientErrorKey(error, status))));
  }
  request.log.error({ err: error }, 'request failed');
  return reply.status(500).send(apiError(translate(lang, 'error.internal')));
}

function safeLanguage(request: FastifyRequest) {
  try {
    return requestLanguage(request);
  } catch {
    return requestLanguage({ query: {}, headers: request.headers });
  }
}

async function errorsPlugin(app: FastifyInstance): Promise<void> {
  app.setErrorHandler(handleError);
}

export default fp(errorsPlugin, { name: 'errors' });
