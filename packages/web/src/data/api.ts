import { i18next, currentLanguage } from '../i18n/index.ts';
import { apiAddress } from './api-base.ts';
import { reportNotLoggedIn, sessionStore } from './session.ts';
import { readStored } from './storage.ts';
import { DEFAULT_TIME_ZONE_CHOICE, isTimeZoneChoice, zoneNameOf } from '../format/time-zone.ts';

// The one HTTP client for `/api`. Every call carries the stored token (raw, in Authorization), the
// interface language, a timestamp and the reader's display time zone (spec 02 section 7: the client's zone
// name; here the zone the reader chose, Asia/Shanghai unless changed, so that the times the server writes
// into lists are on the same clock as the chart), and every answer
// is read as the envelope `{type, message}` (spec 03 section 1).

export type ApiFormValue = string | number | boolean | null | undefined;
export type ApiBody = Record<string, ApiFormValue>;

export interface ApiRequestOptions {
  method?: 'GET' | 'POST';
  query?: Record<string, ApiFormValue>;
  /** Form-encoded by default; a FormData body goes out as multipart (file uploads). */
  body?: ApiBody | FormData;
  /** Send a plain-object body as JSON instead of form-encoded. */
  json?: boolean;
  signal?: AbortSignal;
}

export type ApiErrorKind = 'rejected' | 'not-logged-in' | 'real-name-required' | 'network' | 'bad-response';

/** A call that did not succeed. `message` is always fit to show the user. */
export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly status: number;

  constructor(kind: ApiErrorKind, message: string, status: number) {
    super(message);
    this.name = 'ApiError';
    this.kind = kind;
    this.status = status;
  }
}

const API_PREFIX = '/api';

function displayZoneName(): string {
  const stored = readStored('time_zone');
  return zoneNameOf(isTimeZoneChoice(stored) ? stored : DEFAULT_TIME_ZONE_CHOICE);
}

export function buildApiUrl(path: string, query: Record<string, ApiFormValue> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  params.set('lang', currentLanguage());
  params.set('timestamp', String(Date.now()));
  params.set('timezone', displayZoneName());
  return apiAddress(`${API_PREFIX}${path}?${params.toString()}`);
}

export function encodeForm(body: ApiBody): URLSearchParams {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(body)) {
    if (value !== undefined && value !== null) form.set(key, String(value));
  }
  return form;
}

function requestInit(options: ApiRequestOptions): RequestInit {
  const headers = new Headers({ Accept: 'application/json' });
  const token = sessionStore.getState().token;
  if (token !== null) headers.set('Authorization', token);
  const init: RequestInit = { method: options.method ?? (options.body ? 'POST' : 'GET'), headers };
  if (options.signal) init.signal = options.signal;
  const body = options.body;
  if (body instanceof FormData) {
    init.body = body;
  } else if (body !== undefined && options.json === true) {
    headers.set('Content-Type', 'application/json');
    init.body = JSON.stringify(body);
  } else if (body !== undefined) {
    // URLSearchParams sets the form content type itself.
    init.body = encodeForm(body);
  }
  return init;
}

/** Sends a request and returns the parsed JSON as it came, for the few calls outside the envelope. */
export async function apiRaw(
  path: string,
  options: ApiRequestOptions = {},
): Promise<{ status: number; body: unknown }> {
  let response: Response;
  try {
    response = await fetch(buildApiUrl(path, options.query), requestInit(options));
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError('network', i18next.t('errors.network'), 0);
  }
  try {
    return { status: response.status, body: await response.json() };
  } catch {
    throw new ApiError('bad-response', i18next.t('errors.badResponse'), response.status);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads the envelope: the `message` of an ok answer, or an ApiError for anything else. */
export function readEnvelope(body: unknown, status: number): unknown {
  if (!isRecord(body) || typeof body.type !== 'string') {
    throw new ApiError('bad-response', i18next.t('errors.badResponse'), status);
  }
  switch (body.type) {
    case 'ok':
      return body.message;
    case '999':
      reportNotLoggedIn();
      throw new ApiError('not-logged-in', i18next.t('auth.sessionExpired'), status);
    case '998':
      throw new ApiError(
        'real-name-required',
        messageText(body.message, i18next.t('errors.realNameRequired')),
        status,
      );
    case 'error':
      throw new ApiError('rejected', messageText(body.message, i18next.t('errors.badResponse')), status);
    default:
      throw new ApiError('bad-response', i18next.t('errors.badResponse'), status);
  }
}

function messageText(message: unknown, fallback: string): string {
  return typeof message === 'string' && message.trim() !== '' ? message : fallback;
}

/**
 * Calls `/api{path}` and resolves with the envelope's `message`. The caller states the expected
 * type; answers are to be checked against the shared schemas where the shape matters.
 */
export async function apiRequest<T = unknown>(path: string, options: ApiRequestOptions = {}): Promise<T> {
  const { status, body } = await apiRaw(path, options);
  return readEnvelope(body, status) as T;
}

export const api = {
  get<T = unknown>(path: string, query?: ApiRequestOptions['query'], signal?: AbortSignal): Promise<T> {
    return apiRequest<T>(path, { method: 'GET', query, signal });
  },
  post<T = unknown>(
    path: string,
    body: ApiBody | FormData = {},
    options: Omit<ApiRequestOptions, 'body'> = {},
  ): Promise<T> {
    return apiRequest<T>(path, { ...options, method: 'POST', body });
  },
};
