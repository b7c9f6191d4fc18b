import type {
  MicroOrderListItem,
  MicroExportReply,
  MicroStatsDay,
  MicroPayableCurrency,
  MicroProof,
  MicroSecondsReply,
  Paged,
} from '@fairex/shared';
import { api } from './api.ts';

// The seconds-contract calls (docs/micro.md), typed. Amounts and prices stay the decimal strings the server
// sent; the screen computes with bigint only (micro-math.ts).

export const MICRO_PAGE_SIZE = 20;

export type MicroOrder = MicroOrderListItem;

export function fetchSeconds(signal?: AbortSignal): Promise<MicroSecondsReply> {
  return api.get<MicroSecondsReply>('/microtrade/seconds', undefined, signal);
}

export function fetchPayableCurrencies(signal?: AbortSignal): Promise<MicroPayableCurrency[]> {
  return api.get<MicroPayableCurrency[]>('/microtrade/payable_currencies', undefined, signal);
}

export function fetchMicroOrders(
  status: 1 | 3,
  page: number,
  signal?: AbortSignal,
): Promise<Paged<MicroOrder>> {
  return api.get<Paged<MicroOrder>>('/microtrade/lists', { status, page, limit: MICRO_PAGE_SIZE }, signal);
}

export interface MicroSubmit {
  match_id: number;
  currency_id: number;
  type: 1 | 2;
  seconds: number;
  number: string;
}

export function submitMicroOrder(body: MicroSubmit): Promise<MicroOrder> {
  return api.post<MicroOrder>('/microtrade/submit', { ...body });
}

export function fetchMicroProof(id: number, signal?: AbortSignal): Promise<MicroProof> {
  return api.get<MicroProof>('/microtrade/proof', { id }, signal);
}

export function fetchMicroStats(days: number, signal?: AbortSignal): Promise<{ days: MicroStatsDay[] }> {
  return api.get<{ days: MicroStatsDay[] }>('/microtrade/stats', { days }, signal);
}

/** The user's own orders with their proofs' fields as CSV, built by the server from the recorded orders. */
export function fetchMicroExport(signal?: AbortSignal): Promise<MicroExportReply> {
  return api.get<MicroExportReply>('/microtrade/export', undefined, signal);
}
