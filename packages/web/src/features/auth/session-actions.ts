// What logging in and out do in the browser (spec 01 section 4): a login stores the token, the account
// and the user id, reads the user info, and reloads after one second (or goes to where the visitor was
// headed); a logout revokes the token on the server, clears local storage and reloads after one second.
import { writeStored } from '../../data/storage.ts';
import { endSession, refreshSession, sessionStore } from '../../data/session.ts';
import { reloadPageAfter } from '../../app/page-reload.ts';
import { fetchUserInfo, logout, type UserInfo } from '../../data/auth.ts';

export const AFTER_LOGIN_DELAY_MS = 1000;
export const AFTER_LOGOUT_DELAY_MS = 1000;

/** Stores a new session and reads the user info (the seller flag lives in local storage too). */
export async function storeSession(token: string, user: UserInfo): Promise<UserInfo> {
  writeStored('token', token);
  writeStored('accountNum', user.account);
  writeStored('user_id', String(user.id));
  refreshSession();
  const info = await fetchUserInfo().catch(() => user);
  writeStored('is_seller', String(info.is_seller));
  return info;
}

/** Binding an e-mail can rename the account; the header shows the name the server now has. */
export async function refreshAccountName(): Promise<void> {
  const info = await fetchUserInfo();
  writeStored('accountNum', info.account);
  refreshSession();
}

/** Keeps the session after a password change, which ended every older token. */
export function replaceToken(token: string): void {
  writeStored('token', token);
  refreshSession();
}

/**
 * Logout. The server is told first (so the token stops working everywhere), but the browser forgets the
 * session at once either way: an unreachable server must not keep anyone logged in here.
 */
export function logoutAndReload(): void {
  if (sessionStore.getState().token !== null) void logout().catch(() => undefined);
  endSession();
  reloadPageAfter(AFTER_LOGOUT_DELAY_MS);
}
