// Calls as a client written for the template's API makes them: form-encoded bodies, the raw token in
// `Authorization`, the language in a `lang` header, and whatever cookies the server set before.
import type { FastifyInstance } from 'fastify';

export interface TemplateReply {
  type: string;
  message: unknown;
  [key: string]: unknown;
}

export interface TemplateCallOptions {
  token?: string;
  lang?: string;
  ip?: string;
  method?: 'GET' | 'POST';
  /** The `Cookie` header to send. */
  cookie?: string;
}

export interface TemplateAnswer {
  reply: TemplateReply;
  /** The cookies the answer set, as `name=value` pairs ready for a `Cookie` header. */
  setCookies: string[];
}

export async function templateRequest(
  app: FastifyInstance,
  path: string,
  fields: Record<string, string | number> = {},
  options: TemplateCallOptions = {},
): Promise<TemplateAnswer> {
  const method = options.method ?? 'POST';
  const form = new URLSearchParams(Object.entries(fields).map(([key, value]) => [key, String(value)]));
  const headers: Record<string, string> = { lang: options.lang ?? 'en' };
  if (options.token !== undefined) headers.authorization = options.token;
  if (options.cookie !== undefined) headers.cookie = options.cookie;
  if (method === 'POST') headers['content-type'] = 'application/x-www-form-urlencoded';
  const response = await app.inject({
    method,
    url: method === 'GET' && form.size > 0 ? `/api${path}?${form.toString()}` : `/api${path}`,
    headers,
    remoteAddress: options.ip ?? '127.0.0.1',
    ...(method === 'POST' ? { payload: form.toString() } : {}),
  });
  if (response.statusCode !== 200) throw new Error(`HTTP ${response.statusCode}: ${response.body}`);
  const raw = response.headers['set-cookie'];
  const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  return {
    reply: response.json() as TemplateReply,
    setCookies: list.map((line) => line.split(';')[0] ?? ''),
  };
}

export async function templateCall(
  app: FastifyInstance,
  path: string,
  fields: Record<string, string | number> = {},
  options: TemplateCallOptions = {},
): Promise<TemplateReply> {
  return (await templateRequest(app, path, fields, options)).reply;
}
