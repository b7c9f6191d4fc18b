import { useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  DefiBalanceReply,
  DefiBuyReply,
  DefiExitReply,
  DefiListReply,
  DefiTotalReply,
  IcoBalanceReply,
  IcoBuyReply,
  IcoListReply,
  IepnInfo,
  MinerBalanceReply,
  MinerBuyReply,
  MinerEarningsReply,
  MinerExtractRecordReply,
  MinerExtractReply,
  MinerListReply,
  MinerOrderInfo,
} from '@fairex/shared';
import { api } from './api.ts';
import { useSession } from './session.ts';

// Token sales, cloud mining and defi staking (docs/products.md), typed with the shared contract. Every figure
// stays the decimal text the server sent; the screens compute previews with bigint only
// (features/products/product-math.ts). ICO and miner lists are polled every 2 s (spec 02 section 9) so sold
// and remaining follow other buyers; nothing is jittered.

/** Every query of this area starts with this key, so one invalidation refreshes them all. */
export const PRODUCTS_KEY = 'products';

/** Spec 02 section 9: ICO and miner prices are polled every 2 s. */
export const PRODUCT_POLL_MS = 2_000;

/** The list tabs of spec 02 sections 2.6-2.8: -1 all, 1 mine, 2 ended. */
export type ProductTab = -1 | 1 | 2;

function useToken(): string | null {
  return useSession((state) => state.token);
}

/** Refreshes every product query and the wallets (a purchase moves both). */
export function useProductsRefresh(): () => Promise<void> {
  const client = useQueryClient();
  return async () => {
    await Promise.all([
      client.invalidateQueries({ queryKey: [PRODUCTS_KEY] }),
      client.invalidateQueries({ queryKey: ['wallet'] }),
    ]);
  };
}

// The tab is part of each list's key and the tabs' rows differ in meaning (a product, a user's purchase), so a
// list never shows the previous key's rows while the next loads.

// ---------------------------------------------------------------------------------------------------------
// ICO

export function useIcoList(tab: ProductTab) {
  const token = useToken();
  return useQuery({
    queryKey: [PRODUCTS_KEY, 'ico', 'list', tab, token],
    queryFn: ({ signal }) => api.post<IcoListReply>('/ico/list', { status: tab }, { signal }),
    enabled: tab === -1 || token !== null,
    refetchInterval: PRODUCT_POLL_MS,
  });
}

export function useIcoBalance(currency: number | null) {
  const token = useToken();
  return useQuery({
    queryKey: [PRODUCTS_KEY, 'ico', 'balance', currency, token],
    queryFn: ({ signal }) =>
      api.post<IcoBalanceReply>('/ico/balance', currency === null ? {} : { currency }, { signal }),
    enabled: token !== null,
  });
}

export function buyIco(id: number, number: string): Promise<IcoBuyReply> {
  return api.post<IcoBuyReply>('/ico/buy', { id, number });
}

export function useIepn() {
  return useQuery({
    queryKey: [PRODUCTS_KEY, 'iepn'],
    queryFn: ({ signal }) => api.get<IepnInfo>('/iepn', undefined, signal),
    refetchInterval: PRODUCT_POLL_MS,
  });
}

// ---------------------------------------------------------------------------------------------------------
// Cloud mining

/** Tab -1 lists the miners on sale (/miner/list); tabs 1 and 2 the user's rents (/miner/record). */
export function useMinerList(tab: ProductTab) {
  const token = useToken();
  return useQuery({
    queryKey: [PRODUCTS_KEY, 'miner', 'list', tab, token],
    queryFn: ({ signal }) =>
      api.post<MinerListReply>(tab === -1 ? '/miner/list' : '/miner/record', { status: tab }, { signal }),
    enabled: tab === -1 || token !== null,
    refetchInterval: PRODUCT_POLL_MS,
  });
}

export function useMinerBalance(currency: number | null) {
  const token = useToken();
  return useQuery({
    queryKey: [PRODUCTS_KEY, 'miner', 'balance', currency, token],
    queryFn: ({ signal }) =>
      api.post<MinerBalanceReply>('/miner/balance', currency === null ? {} : { currency }, { signal }),
    enabled: token !== null,
  });
}

export function buyMiner(id: number, number: string): Promise<MinerBuyReply> {
  return api.post<MinerBuyReply>('/miner/buy', { id, number });
}

export function useMinerInfo(id: number | null) {
  const token = useToken();
  return useQuery({
    queryKey: [PRODUCTS_KEY, 'miner', 'info', id, token],
    queryFn: ({ signal }) => api.post<MinerOrderInfo>('/miner/info', { id }, { signal }),
    enabled: token !== null && id !== null,
  });
}

export function useMinerEarnings(id: number | null) {
  const token = useToken();
  return useQuery({
    queryKey: [PRODUCTS_KEY, 'miner', 'earnings', id, token],
    queryFn: ({ signal }) => api.post<MinerEarningsReply>('/miner/earnings', { id }, { signal }),
    enabled: token !== null && id !== null,
  });
}

export function useMinerExtractRecords(id: number | null) {
  const token = useToken();
  return useQuery({
    queryKey: [PRODUCTS_KEY, 'miner', 'extract_record', id, token],
    queryFn: ({ signal }) => api.post<MinerExtractRecordReply>('/miner/extract_record', { id }, { signal }),
    enabled: token !== null && id !== null,
  });
}

/** Spec 02 section 5: the amount is sent as typed; the server refuses what it cannot take. */
export function extractMiner(id: number, number: string): Promise<MinerExtractReply> {
  return api.post<MinerExtractReply>('/miner/extract', { id, number });
}

// ---------------------------------------------------------------------------------------------------------
// Defi staking

export function useDefiTotal() {
  const token = useToken();
  return useQuery({
    queryKey: [PRODUCTS_KEY, 'defi', 'total', token],
    queryFn: ({ signal }) => api.get<DefiTotalReply>('/defi/total', undefined, signal),
    enabled: token !== null,
  });
}

/** Tab -1 lists the running products (/defi/list); tabs 1 and 2 the user's stakes (/defi/record). */
export function useDefiList(tab: ProductTab) {
  const token = useToken();
  return useQuery({
    queryKey: [PRODUCTS_KEY, 'defi', 'list', tab, token],
    queryFn: ({ signal }) =>
      tab === -1
        ? api.post<DefiListReply>('/defi/list', { status: tab }, { signal })
        : api.post<DefiListReply>('/defi/record', { status: tab }, { signal }),
    enabled: tab === -1 || token !== null,
  });
}

export function useDefiBalance(currency: number | null) {
  const token = useToken();
  return useQuery({
    queryKey: [PRODUCTS_KEY, 'defi', 'balance', currency, token],
    queryFn: ({ signal }) => api.post<DefiBalanceReply>('/defi/balance', { currency }, { signal }),
    enabled: token !== null && currency !== null,
  });
}

export function buyDefi(id: number, number: string): Promise<DefiBuyReply> {
  return api.post<DefiBuyReply>('/defi/buy', { id, number });
}

export function exitDefi(id: number): Promise<DefiExitReply> {
  return api.post<DefiExitReply>('/defi/exit', { id });
}
