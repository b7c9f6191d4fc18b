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

/**
 * The rows of page `page` (1-based, `perPage` rows a page) of a list held whole in memory: live engine
 * state (open orders, positions, advertisements) or live rows merged with stored ones. Past the last page
 * it is empty. See `pageOfList` for the whole page with its counts.
 */
export function pageRows<T>(all: readonly T[], page: number, perPage: number): T[] {
  return all.slice((page - 1) * perPage, page * perPage);
}

/** Page `page` of a list held whole in memory, with its counts (total: the whole list's length). */
export function pageOfList<T>(all: readonly T[], page: number, perPage: number): Paged<T> {
  return paged(pageRows(all, page, perPage), page, perPage, all.length);
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
