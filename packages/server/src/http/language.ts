import type { FastifyRequest } from 'fastify';
import type { Language } from '@fairex/shared';
import { DEFAULT_LANGUAGE, resolveLanguage } from '@fairex/shared';

/** The request language: the `lang` query parameter, else a `lang` header, else English (spec 03 section 1). */
export function requestLanguage(request: Pick<FastifyRequest, 'query' | 'headers'>): Language {
  const query = request.query as Record<string, unknown> | undefined;
  return resolveLanguage(query?.lang) ?? resolveLanguage(request.headers.lang) ?? DEFAULT_LANGUAGE;
}
