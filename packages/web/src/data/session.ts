import { createStore, useStore } from 'zustand';
import { clearStoredExceptPreferences, readStored, removeStored } from './storage.ts';

// Who is logged in, as far as the browser knows: a stored token (spec 02 section 6). The store also
// carries the request to open the login dialog, so that code outside React (the API client on a
// 999 answer, the route guard) can ask for it and the dialog, wherever it is mounted, can answer.

export interface LoginRequest {
  /** Where to go after a successful login, if anywhere. */
  redirect: string | null;
  reason: 'guard' | 'expired';
}

export interface SessionState {
  token: string | null;
  accountNum: string | null;
  userId: string | null;
  loginRequest: LoginRequest | null;
}

function readSession(): Pick<SessionState, 'token' | 'accountNum' | 'userId'> {
  return { token: readStored('token'), accountNum: readStored('accountNum'), userId: readStored('user_id') };
}

export const sessionStore = createStore<SessionState>(() => ({ ...readSession(), loginRequest: null }));

export function useSession<T>(selector: (state: SessionState) => T): T {
  return useStore(sessionStore, selector);
}

export function isLoggedIn(): boolean {
  return sessionStore.getState().token !== null;
}

/** Re-reads local storage, for example after a login stored a new token. */
export function refreshSession(): void {
  sessionStore.setState(readSession());
}

export function requestLogin(request: LoginRequest): void {
  sessionStore.setState({ loginRequest: request });
}

export function clearLoginRequest(): void {
  sessionStore.setState({ loginRequest: null });
}

/** The server no longer accepts the token: forget it (and the user id) but keep everything else. */
export function expireSession(): void {
  removeStored('token');
  removeStored('user_id');
  sessionStore.setState({ token: null, userId: null });
}

/** Spec 02 section 6: after a "not logged in" answer the login dialog opens half a second later. */
export const LOGIN_PROMPT_DELAY_MS = 500;

let loginPromptTimer: ReturnType<typeof setTimeout> | null = null;

/**
 * The server answered "not logged in" (type 999, over HTTP or the socket): forget the token now and
 * ask for the login dialog once, half a second on, however many calls failed together.
 */
export function reportNotLoggedIn(): void {
  expireSession();
  if (loginPromptTimer !== null) return;
  loginPromptTimer = setTimeout(() => {
    loginPromptTimer = null;
    const location = globalThis.location;
    requestLogin({ redirect: `${location.pathname}${location.search}`, reason: 'expired' });
  }, LOGIN_PROMPT_DELAY_MS);
}

/** Logout: forget the session and every stored choice except display preferences. */
export function endSession(): void {
  clearStoredExceptPreferences();
  sessionStore.setState({ token: null, accountNum: null, userId: null, loginRequest: null });
}
