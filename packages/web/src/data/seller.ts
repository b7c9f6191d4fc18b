import { createStore, useStore } from 'zustand';
import type { SellerPayload } from '@fairex/shared/api/p2p.ts';
import { readStored, writeStored } from './storage.ts';

// The merchant flag (spec 01: the /myLegalShops link shows only when the stored is_seller is 1, also
// updated by a `seller` event). The header reads it on every page, so this module holds no socket: the
// listener (seller-push.ts) is loaded on demand once a user is logged in.

export interface SellerState {
  isSeller: boolean;
}

/** The stored is_seller flag, kept live by `seller`. */
export const sellerStore = createStore<SellerState>(() => ({ isSeller: readStored('is_seller') === '1' }));

export function useIsSeller(): boolean {
  return useStore(sellerStore, (state) => state.isSeller);
}

/** Applies a `seller` push: stores the flag and tells every screen that reads it. */
export function applySellerPush(payload: Pick<SellerPayload, 'is_seller'>): void {
  writeStored('is_seller', String(payload.is_seller));
  sellerStore.setState({ isSeller: payload.is_seller === 1 });
}

/** Re-reads the stored flag (after a login stored it, or a logout cleared it). */
export function syncSellerFromStorage(loggedIn: boolean): void {
  sellerStore.setState({ isSeller: loggedIn && readStored('is_seller') === '1' });
}
