import { buildApiUrl } from './api.ts';
import { adminT } from '../admin/i18n.ts';
import { adminSession, clearAdminSession, type SecondFactorState } from '../admin/session.ts';

// The console's client for /api/backoffice (and /api/admin/login): the administrator's token from the
// console's own session, never the user's. A 999 answer ends the console session (the sign-in page shows);
// an answer that asks for the second factor moves the console to the code step.

export class AdminApiError extends Error {
  readonly kind: 'rejected' | 'signed-out' | 'second-factor' | 'network' | 'bad-response';

  constructor(kind: AdminApiError['kind'], message: string) {
    super(message);
    this.name = 'AdminApiError';
    this.kind = kind;
  }
}

export type Query = Record<string, string | number | boolean | undefined | null>;

interface Envelope {
  type?: unknown;
  message?: unknown;
  second_factor?: unknown;
}

function text(value: unknown, fallback: string): string {
  return typeof value === 'string' && value.trim() !== '' ? value : fallback;
}

function read(body: Envelope): unknown {
  switch (body.type) {
    case 'ok':
      return body.message;
    case '999':
      clearAdminSession();
      throw new AdminApiError('signed-out', text(body.message, adminT('session.expired')));
    case 'error':
      if (body.second_factor === 'required' || body.second_factor === 'enrol') {
        adminSession.setState({ secondFactor: body.second_factor as SecondFactorState });
        throw new AdminApiError('second-factor', text(body.message, adminT('session.codeNeeded')));
      }
      throw new AdminApiError('rejected', text(body.message, adminT('common.badResponse')));
    default:
      throw new AdminApiError('bad-response', adminT('common.badResponse'));
  }
}

async function send(method: 'GET' | 'POST', path: string, query: Query, body?: unknown): Promise<Response> {
  const headers = new Headers({ Accept: 'application/json' });
  const token = adminSession.getState().token;
  if (token !== null) headers.set('Authorization', token);
  const init: RequestInit = { method, headers };
  if (body !== undefined) {
    headers.set('Content-Type', 'application/json');
    init.body = JSON.stringify(body);
  }
  try {
    return await fetch(buildApiUrl(path, query), init);
  } catch {
    throw new AdminApiError('network', adminT('common.network'));
  }
}

async function call<T>(method: 'GET' | 'POST', path: string, query: Query, body?: unknown): Promise<T> {
  const response = await send(method, path, query, body);
  let parsed: Envelope;
  try {
    parsed = (await response.json()) as Envelope;
  } catch {
    throw new AdminApiError('bad-response', adminT('common.badResponse'));
  }
  return read(parsed) as T;
}

export const adminApi = {
  get<T>(path: string, query: Query = {}): Promise<T> {
    return call<T>('GET', path, query);
  },
  /** Bodies go as JSON: some carry texts per language. */
  post<T>(path: string, body: Record<string, unknown> = {}): Promise<T> {
    return call<T>('POST', path, {}, body);
  },
  /** A private file (an identity photo) as an object URL; the caller revokes it. */
  async blobUrl(address: string): Promise<string> {
    // The server names the file by its full address (/api/...); the client adds /api itself.
    const [pathname = '', search = ''] = address.replace(/^\/api(?=\/)/, '').split('?');
    const response = await send('GET', pathname, Object.fromEntries(new URLSearchParams(search)));
    const type = response.headers.get('content-type') ?? '';
    if (!type.startsWith('image/')) read((await response.json()) as Envelope);
    return URL.createObjectURL(await response.blob());
  },
};

/** The list shape of paged answers (spec 03 section 1). */
export type { Paged } from '@fairex/shared/envelope.ts';
