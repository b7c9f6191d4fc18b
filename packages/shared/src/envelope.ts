// The reply envelope of every /api call (spec 03 section 1). `type` tells the client what happened;
// `message` carries the data on success and a text in the request language otherwise.

export interface ApiOk<T> {
  type: 'ok';
  message: T;
}

export interface ApiError {
  type: 'error';
  message: string;
}

/** Not logged in, or the login expired: the client opens the login dialog. */
export interface ApiNotLoggedIn {
  type: '999';
  message: string;
}

/** Real-name verification must be completed first. */
export interface ApiRealNameRequired {
  type: '998';
  message: string;
}

export type ApiFailure = ApiError | ApiNotLoggedIn | ApiRealNameRequired;
export type ApiReply<T> = ApiOk<T> | ApiFailure;

/** A page of a list: `data` plus the paging fields the web client reads. */
export interface Paged<T> {
  data: T[];
  current_page: number;
  last_page: number;
  per_page: number;
  total: number;
}

/** The one call with its own shape: GET /api/currency/new_timeshar (code 1 success, -1 failure). */
export type TimesharReply<T> = { code: 1; msg: string; data: T[] } | { code: -1; msg: string; data: [] };

export function ok<T>(message: T): ApiOk<T> {
  return { type: 'ok', message };
}

export function apiError(message: string): ApiError {
  return { type: 'error', message };
}

export function notLoggedIn(message: string): ApiNotLoggedIn {
  return { type: '999', message };
}

export function realNameRequired(message: string): ApiRealNameRequired {
  return { type: '998', message };
}

export function paged<T>(data: T[], page: number, perPage: number, total: number): Paged<T> {
  return {
    data,
    current_page: page,
    last_page: Math.max(1, Math.ceil(total / perPage)),
    per_page: perPage,
    total,
  };
}
