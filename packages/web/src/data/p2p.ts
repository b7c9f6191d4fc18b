// P2P fiat trade (docs/p2p.md), typed with the shared contract: the ad book, orders and their chat, payment
// methods, the merchant's shop, acceptor deals, and the `seller` flag the header and the shop read. Amounts
// and prices stay the decimal strings the server sent; the screens compute with bigint only (p2p-math.ts).
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AcceptorDeal,
  P2pAd,
  P2pConfig,
  P2pCounters,
  P2pFiat,
  P2pMerchantStats,
  P2pMerchantStatus,
  P2pMessage,
  P2pMethod,
  P2pOrder,
  P2pOrderFeedback,
  P2pOrderPayload,
  P2pOrderStatus,
  P2pPaymentMethod,
} from '@fairex/shared/api/p2p.ts';
import type { P2pAppealReason } from '@fairex/shared/api/p2p.ts';
import type { Paged } from '@fairex/shared';
import { fetchImageUrl } from './account.ts';
import { api, type ApiBody } from './api.ts';
import { useSocketEvent } from './feeds.ts';
import { useSession } from './session.ts';

export type {
  AcceptorDeal,
  P2pAd,
  P2pConfig,
  P2pCounters,
  P2pFiat,
  P2pMerchantStats,
  P2pMerchantStatus,
  P2pMessage,
  P2pMethod,
  P2pOrder,
  P2pOrderFeedback,
  P2pOrderStatus,
  P2pPaymentMethod,
};

// The contract's value lists, repeated here as typed constants: importing values from the contract module
// would bring its zod schemas into the browser bundle. Each entry is checked against the contract's type.
export const PAYMENT_METHODS = ['bank', 'ali_pay', 'we_chat'] as const satisfies readonly P2pMethod[];
export const FIATS = ['CNY', 'USD', 'HKD', 'KRW', 'JPY', 'EUR'] as const satisfies readonly P2pFiat[];
export const ORDER_STATUSES = [
  'unpaid',
  'paid',
  'appealed',
  'completed',
  'cancelled',
] as const satisfies readonly P2pOrderStatus[];

/** Every P2P query key starts with this, so one invalidation refreshes the area. */
export const P2P_KEY = ['p2p'] as const;

// ------------------------------------------------------------------------------------------- config

export function useP2pConfig() {
  return useQuery({
    queryKey: [...P2P_KEY, 'config'],
    queryFn: ({ signal }) => api.get<P2pConfig>('/p2p/config', undefined, signal),
    staleTime: 60_000,
  });
}

// ---------------------------------------------------------------------------------------------- ads

export interface AdBookFilter {
  /** The taker's side: buy lists sell ads. */
  side: 'buy' | 'sell';
  currencyId: number;
  fiat: P2pFiat;
  method?: P2pMethod | undefined;
  /** A fiat amount the ad's per-order limits must admit (decimal text). */
  amount?: string | undefined;
  page: number;
}

export function useAdBook(filter: AdBookFilter | null) {
  return useQuery({
    queryKey: [...P2P_KEY, 'ads', filter],
    queryFn: ({ signal }) =>
      api.get<Paged<P2pAd>>(
        '/p2p/ads',
        {
          side: filter?.side,
          currency_id: filter?.currencyId,
          fiat: filter?.fiat,
          method: filter?.method,
          amount: filter?.amount,
          page: filter?.page,
        },
        signal,
      ),
    enabled: filter !== null,
    refetchInterval: 15_000,
  });
}

export function useMyAds(status: 'online' | 'paused' | 'closed' | undefined, page: number, enabled: boolean) {
  return useQuery({
    queryKey: [...P2P_KEY, 'myAds', status, page],
    queryFn: ({ signal }) => api.get<Paged<P2pAd>>('/p2p/my_ads', { status, page }, signal),
    enabled,
  });
}

export function useAd(id: number | null) {
  return useQuery({
    queryKey: [...P2P_KEY, 'ad', id],
    queryFn: ({ signal }) => api.get<P2pAd>('/p2p/ads/detail', { id }, signal),
    enabled: id !== null,
    staleTime: 60_000,
  });
}

export function useMerchantStats(userId: number | null) {
  return useQuery({
    queryKey: [...P2P_KEY, 'stats', userId],
    queryFn: ({ signal }) => api.get<P2pMerchantStats>('/p2p/merchant/stats', { user_id: userId }, signal),
    enabled: userId !== null,
  });
}

/** The fields of an ad as the form sends them (decimal text; absent fields left out). */
export interface AdFormValues {
  side: 'buy' | 'sell';
  currency_id: number;
  fiat: P2pFiat;
  price_type: 'fixed' | 'floating';
  price?: string | undefined;
  float_percent?: string | undefined;
  total: string;
  min_fiat: string;
  max_fiat: string;
  method_ids: number[];
  window_minutes?: number | undefined;
  terms?: string | undefined;
}

export function createAd(values: AdFormValues): Promise<P2pAd> {
  return api.post<P2pAd>('/p2p/ads/create', { ...values } as unknown as ApiBody, { json: true });
}

export function editAd(id: number, values: Omit<AdFormValues, 'side' | 'currency_id' | 'fiat' | 'total'>) {
  return api.post<P2pAd>('/p2p/ads/edit', { id, ...values } as unknown as ApiBody, { json: true });
}

export function setAdStatus(id: number, action: 'pause' | 'resume' | 'close'): Promise<P2pAd> {
  return api.post<P2pAd>(`/p2p/ads/${action}`, { id });
}

// ------------------------------------------------------------------------------------------- orders

export type OrderListStatus = 'open' | 'completed' | 'cancelled' | 'appealed';

export function useMyOrders(status: OrderListStatus | undefined, page: number, enabled = true) {
  const token = useSession((state) => state.token);
  return useQuery({
    queryKey: [...P2P_KEY, 'orders', status, page, token],
    queryFn: ({ signal }) => api.get<Paged<P2pOrder>>('/p2p/orders', { status, page }, signal),
    enabled: enabled && token !== null,
  });
}

export function useOrder(id: number | null) {
  return useQuery({
    queryKey: [...P2P_KEY, 'order', id],
    queryFn: ({ signal }) => api.get<P2pOrder>('/p2p/orders/detail', { id }, signal),
    enabled: id !== null,
  });
}

export interface TakeAd {
  ad_id: number;
  fiat_amount?: string | undefined;
  amount?: string | undefined;
  method_id?: number | undefined;
}

export function takeAd(input: TakeAd): Promise<P2pOrder> {
  return api.post<P2pOrder>('/p2p/orders/create', { ...input });
}

export function markPaid(id: number, methodId?: number): Promise<P2pOrder> {
  return api.post<P2pOrder>('/p2p/orders/paid', { id, method_id: methodId });
}

/** The release, with the authenticator's code or an e-mail code. */
export function releaseOrder(id: number, factor: { totp_code: string } | { code: string }): Promise<P2pOrder> {
  return api.post<P2pOrder>('/p2p/orders/release', { id, ...factor });
}

export function sendReleaseCode(): Promise<string> {
  return api.post<string>('/p2p/security_code', { purpose: 'release' });
}

export function cancelOrder(id: number, reason?: string): Promise<P2pOrder> {
  return api.post<P2pOrder>('/p2p/orders/cancel', { id, reason });
}

export type AppealReason = P2pAppealReason;

export function appealOrder(input: {
  id: number;
  reason: AppealReason;
  description: string;
  evidence: string[];
}): Promise<P2pOrder> {
  return api.post<P2pOrder>('/p2p/orders/appeal', { ...input } as unknown as ApiBody, { json: true });
}

export function useCounters() {
  const token = useSession((state) => state.token);
  return useQuery({
    queryKey: [...P2P_KEY, 'counters', token],
    queryFn: ({ signal }) => api.get<P2pCounters>('/p2p/counters', undefined, signal),
    enabled: token !== null,
  });
}

// ----------------------------------------------------------------------------------------- feedback

/** What the viewer gave and received on a completed order (asked once the order has ended). */
export function useOrderFeedback(orderId: number | null) {
  return useQuery({
    queryKey: [...P2P_KEY, 'feedback', orderId],
    queryFn: ({ signal }) => api.get<P2pOrderFeedback>('/p2p/orders/feedback', { id: orderId }, signal),
    enabled: orderId !== null,
  });
}

export function leaveFeedback(input: {
  id: number;
  rating: 'positive' | 'negative';
  comment?: string;
}): Promise<P2pOrderFeedback> {
  return api.post<P2pOrderFeedback>('/p2p/orders/feedback', { ...input });
}

// --------------------------------------------------------------------------------------------- chat

export function useMessages(orderId: number | null) {
  return useQuery({
    queryKey: [...P2P_KEY, 'messages', orderId],
    queryFn: ({ signal }) => api.get<P2pMessage[]>('/p2p/orders/messages', { id: orderId }, signal),
    enabled: orderId !== null,
  });
}

export function sendMessage(input: { id: number; text?: string; image?: string }): Promise<P2pMessage> {
  return api.post<P2pMessage>('/p2p/orders/message', { ...input });
}

/** Uploads a chat or evidence image; the answer is its private address (GET /p2p/upload/image). */
export function uploadOrderImage(file: File): Promise<string> {
  const body = new FormData();
  body.append('file', file);
  return api.post<string>('/p2p/upload', body);
}

// ---------------------------------------------------------------------------------- payment methods

export function usePaymentMethods(enabled = true) {
  const token = useSession((state) => state.token);
  return useQuery({
    queryKey: [...P2P_KEY, 'methods', token],
    queryFn: ({ signal }) => api.get<P2pPaymentMethod[]>('/p2p/methods', undefined, signal),
    enabled: enabled && token !== null,
  });
}

export interface PaymentMethodInput {
  method: P2pMethod;
  holder_name: string;
  account: string;
  bank_name?: string | undefined;
  qr_image?: string | undefined;
}

export function addPaymentMethod(input: PaymentMethodInput): Promise<P2pPaymentMethod> {
  return api.post<P2pPaymentMethod>('/p2p/methods/add', { ...input });
}

export function deletePaymentMethod(id: number): Promise<string> {
  return api.post<string>('/p2p/methods/delete', { id });
}

// -------------------------------------------------------------------------------------- merchant

export function useMerchantStatus() {
  const token = useSession((state) => state.token);
  return useQuery({
    queryKey: [...P2P_KEY, 'merchant', token],
    queryFn: ({ signal }) => api.get<P2pMerchantStatus>('/p2p/merchant/status', undefined, signal),
    enabled: token !== null,
  });
}

export function applyMerchant(input: { nickname: string; note?: string }): Promise<P2pMerchantStatus> {
  return api.post<P2pMerchantStatus>('/p2p/merchant/apply', { ...input });
}

// ---------------------------------------------------------------------------------- acceptor deals

export function useAcceptorDeals(type: 'buy' | 'sell', page: number) {
  const token = useSession((state) => state.token);
  return useQuery({
    queryKey: [...P2P_KEY, 'deals', type, page, token],
    queryFn: ({ signal }) => api.get<Paged<AcceptorDeal>>('/acceptor/my_deal', { type, page }, signal),
    enabled: token !== null,
  });
}

export function createAcceptorDeal(input: {
  type: 'buy' | 'sell';
  ad_id: number;
  money: string;
  method_id?: number | undefined;
}): Promise<AcceptorDeal> {
  return api.post<AcceptorDeal>('/p2p/acceptor/deal', { ...input });
}

/** The acceptor's refusal of a deal before it is paid (the escrow returns to the seller). */
export function rejectDeal(id: number): Promise<AcceptorDeal> {
  return api.post<AcceptorDeal>('/p2p/acceptor/reject', { id });
}

// ------------------------------------------------------------------------------------ live updates

export { useIsSeller } from './seller.ts';

/**
 * Refreshes what a `p2p_order` push makes stale (the order, its chat, the lists, the counters) and calls
 * `onChange` with it, so a screen may tell the reader what happened.
 */
export function useOrderPush(onChange?: (payload: P2pOrderPayload) => void): void {
  const queryClient = useQueryClient();
  useSocketEvent('p2p_order', (payload) => {
    if (payload.change === 'message') {
      void queryClient.invalidateQueries({ queryKey: [...P2P_KEY, 'messages', payload.order_id] });
      void queryClient.invalidateQueries({ queryKey: [...P2P_KEY, 'order', payload.order_id] });
    } else {
      void queryClient.invalidateQueries({ queryKey: P2P_KEY });
    }
    onChange?.(payload);
  });
}

/** Where an order image is read: the server's address as given, or the image reader with its id. */
export function orderImagePath(image: string): string {
  return image.startsWith('/') ? image : `/api/p2p/upload/image?id=${encodeURIComponent(image)}`;
}

/** An order image as an object URL (the reader needs the token, which an <img> cannot send). */
export function fetchOrderImage(image: string): Promise<string> {
  return fetchImageUrl(orderImagePath(image));
}
