// The wallet calls of specs 01 and 02 (section 7), typed as the server answers them. Amounts are decimal
// strings from the server; the screens show them as they are (grouped), never through a JavaScript number.
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Paged } from '@fairex/shared/envelope.ts';
import type { WalletGroup, WalletLine, WalletOverview } from '@fairex/shared';
import type {
  AddressBookEntry,
  DepositAddress,
  FlashList,
  FlashRecord,
  LedgerEntry,
  TransferCurrency,
  TransferRecord,
  WalletDetail,
  WalletProtection,
  WithdrawInfo,
} from '@fairex/shared/api/wallet.ts';
import { api } from './api.ts';
import { useSocketEvent } from './feeds.ts';
import { useSession } from './session.ts';

export const WALLET_TYPES = ['change', 'lever', 'micro', 'ico', 'miner', 'defi'] as const;
export type WalletType = (typeof WALLET_TYPES)[number];

export function isWalletType(value: unknown): value is WalletType {
  return typeof value === 'string' && (WALLET_TYPES as readonly string[]).includes(value);
}

/** The overview as the server answers it (`{wallet}_balance` and `lock_{wallet}_balance` per line). */
export type { WalletGroup, WalletLine, WalletOverview };
export type {
  AddressBookEntry as BookEntry,
  DepositRecord,
  FlashCoin,
  FlashList,
  FlashRecord,
  LedgerEntry,
  TransferCurrency as CurrencyOption,
  TransferRecord,
  WalletDetail,
  WalletProtection,
  WithdrawalRecord,
  WithdrawalStatus,
  WithdrawInfo,
} from '@fairex/shared/api/wallet.ts';

export function availableOf(line: WalletLine, wallet: WalletType): string {
  return String(line[`${wallet}_balance`] ?? '0');
}

export function frozenOf(line: WalletLine, wallet: WalletType): string {
  return String(line[`lock_${wallet}_balance`] ?? '0');
}

/** Every query of this area starts with this key, so one invalidation refreshes them all. */
export const WALLET_KEY = 'wallet';

function useToken(): string | null {
  return useSession((state) => state.token);
}

export function useWalletOverview() {
  const token = useToken();
  return useQuery({
    queryKey: [WALLET_KEY, 'list', token],
    queryFn: () => api.post<WalletOverview>('/wallet/list'),
    enabled: token !== null,
  });
}

/** Balances change by the user's own actions and by pushes (`update_balance`): refetch on either. */
export function useBalanceRefresh(): () => Promise<void> {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: [WALLET_KEY] });
  useSocketEvent('update_balance', () => {
    void refresh();
  });
  return refresh;
}

export function useCurrencyList() {
  const token = useToken();
  return useQuery({
    queryKey: [WALLET_KEY, 'currencies', token],
    queryFn: () => api.get<TransferCurrency[]>('/wallet/currencylist'),
    enabled: token !== null,
    staleTime: 60_000,
  });
}

export function useWalletDetail(wallet: WalletType, currency: number | null) {
  const token = useToken();
  return useQuery({
    queryKey: [WALLET_KEY, 'detail', wallet, currency, token],
    queryFn: () => api.post<WalletDetail>('/wallet/detail', { type: wallet, currency }),
    enabled: token !== null && currency !== null,
  });
}

export function transfer(input: { from: WalletType; to: WalletType; currency: number; number: string }) {
  return api.post<string>('/wallet/change', {
    from_field: input.from,
    to_field: input.to,
    currency_id: input.currency,
    number: input.number,
  });
}

export function useRecentTransfers() {
  const token = useToken();
  return useQuery({
    queryKey: [WALLET_KEY, 'change_list', token],
    queryFn: () => api.post<{ list: TransferRecord[] }>('/wallet/change_list'),
    enabled: token !== null,
  });
}

/** A paged list of one of the record calls. */
export function usePagedRecords<T>(path: string, page: number, body: Record<string, string | number> = {}) {
  const token = useToken();
  return useQuery({
    queryKey: [WALLET_KEY, 'records', path, page, body, token],
    queryFn: () => api.post<Paged<T>>(path, { ...body, page }),
    enabled: token !== null,
    placeholderData: keepPreviousData,
  });
}

export function useFlashList() {
  const token = useToken();
  return useQuery({
    queryKey: [WALLET_KEY, 'flash', token],
    queryFn: () => api.post<FlashList>('/wallet/flashAgainstList'),
    enabled: token !== null,
    // Prices move: the page shows the price the server would use now.
    refetchInterval: 10_000,
  });
}

export function flashExchange(input: { type: 0 | 1; coin: number; number: string }) {
  return api.post<{ message: string; record: FlashRecord }>('/wallet/flashAgainst', input);
}

export function useDepositAddress(currency: number | null, chainType: number | null) {
  const token = useToken();
  return useQuery({
    queryKey: [WALLET_KEY, 'address', currency, chainType, token],
    queryFn: () =>
      api.post<DepositAddress>('/wallet/get_in_address', {
        currency,
        ...(chainType === null ? {} : { type: chainType }),
      }),
    enabled: token !== null && currency !== null,
    staleTime: Infinity,
  });
}

export function useWithdrawInfo(currency: number | null) {
  const token = useToken();
  return useQuery({
    queryKey: [WALLET_KEY, 'withdraw-info', currency, token],
    queryFn: () => api.post<WithdrawInfo>('/wallet/get_info', { currency }),
    enabled: token !== null && currency !== null,
  });
}

/** The second factor a withdrawal or a new address needs: one of these, as the account's protection says. */
export interface SecondFactorCodes {
  /** The authenticator's code, when the account has one. */
  totpCode?: string;
  /** The code POST /wallet/security_code sent by e-mail or SMS, when it has none. */
  code?: string;
}

export function useWalletProtection() {
  const token = useToken();
  return useQuery({
    queryKey: [WALLET_KEY, 'protection', token],
    queryFn: () => api.post<WalletProtection>('/wallet/protection'),
    enabled: token !== null,
  });
}

/** Sends the code a withdrawal or a new address needs; answers the translated "code sent" text. */
export function sendSecurityCode() {
  return api.post<string>('/wallet/security_code', {});
}

export function withdraw(
  input: {
    currency: number;
    number: string;
    type: number;
    address?: string;
    addressId?: number;
  } & SecondFactorCodes,
) {
  return api.post<string>('/wallet/out', {
    currency: input.currency,
    number: input.number,
    type: input.type,
    address: input.address,
    address_id: input.addressId,
    totp_code: input.totpCode,
    code: input.code,
  });
}

export function useAddressBook(currency: number | null) {
  const token = useToken();
  return useQuery({
    queryKey: [WALLET_KEY, 'book', currency, token],
    queryFn: () => api.post<AddressBookEntry[]>('/wallet/get_address', { currency }),
    enabled: token !== null && currency !== null,
  });
}

export function addAddress(
  input: { currency: number; address: string; notes: string; type?: number } & SecondFactorCodes,
) {
  return api.post<{ message: string; address: AddressBookEntry }>('/wallet/addaddress', {
    currency_id: input.currency,
    address: input.address,
    notes: input.notes,
    type: input.type,
    totp_code: input.totpCode,
    code: input.code,
  });
}

export function deleteAddress(id: number) {
  return api.post<string>('/wallet/deladdress', { address_id: id });
}

export function useLedger(page: number, limit = 20) {
  const token = useToken();
  return useQuery({
    queryKey: [WALLET_KEY, 'ledger', page, limit, token],
    queryFn: () => api.post<Paged<LedgerEntry>>('/account/list', { page, limit }),
    enabled: token !== null,
    placeholderData: keepPreviousData,
  });
}

export function useWalletLog(wallet: WalletType, currency: number, page: number) {
  const token = useToken();
  return useQuery({
    queryKey: [WALLET_KEY, 'legal_log', wallet, currency, page, token],
    queryFn: () =>
      api.post<{
        list: LedgerEntry[];
        current_page: number;
        last_page: number;
        total: number;
        per_page: number;
      }>('/wallet/legal_log', { type: wallet, currency, page }),
    enabled: token !== null,
    placeholderData: keepPreviousData,
  });
}
