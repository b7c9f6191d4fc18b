import { createStore, useStore } from 'zustand';
import type {
  AdminIdentity,
  AdminSecondFactorState as SecondFactorState,
  BackofficePermission as AdminPermission,
} from '@fairex/shared/api/backoffice.ts';

// The administrator's session in this browser tab, apart from any user login: its own key in session
// storage (never the user's `token` in local storage), so a user session and an administrator session never
// stand in for each other, and closing the tab ends the console's session on this side.

export const ADMIN_TOKEN_KEY = 'fairex_admin_token';

export type {
  AdminIdentity,
  AdminSecondFactorState as SecondFactorState,
  BackofficePermission as AdminPermission,
} from '@fairex/shared/api/backoffice.ts';

export interface AdminSessionState {
  token: string | null;
  admin: AdminIdentity | null;
  permissions: readonly AdminPermission[];
  secondFactor: SecondFactorState | null;
}

function readToken(): string | null {
  try {
    return globalThis.sessionStorage.getItem(ADMIN_TOKEN_KEY);
  } catch {
    return null;
  }
}

export const adminSession = createStore<AdminSessionState>(() => ({
  token: readToken(),
  admin: null,
  permissions: [],
  secondFactor: null,
}));

export function useAdminSession<T>(selector: (state: AdminSessionState) => T): T {
  return useStore(adminSession, selector);
}

export function storeAdminToken(token: string): void {
  try {
    globalThis.sessionStorage.setItem(ADMIN_TOKEN_KEY, token);
  } catch {
    // Without session storage the session lasts as long as this page.
  }
  adminSession.setState({ token, admin: null, permissions: [], secondFactor: null });
}

export function clearAdminSession(): void {
  try {
    globalThis.sessionStorage.removeItem(ADMIN_TOKEN_KEY);
  } catch {
    // Nothing stored.
  }
  adminSession.setState({ token: null, admin: null, permissions: [], secondFactor: null });
}

export function can(permissions: readonly AdminPermission[], permission: AdminPermission): boolean {
  return permissions.includes(permission);
}
