// Which account dialog is open. The header, the home page, route guards and 999 answers (through the
// session store's login request) all open the dialogs here; AuthDialogs, mounted once in the layout, shows them.
import { createStore, useStore } from 'zustand';

export interface AuthDialogState {
  open: 'login' | 'register' | null;
  /** Where to go after logging in. */
  redirect: string | null;
  /** Shown above the login form: why it opened, or what just succeeded (registering, a new password). */
  notice: string | null;
  noticeType: 'success' | 'info';
  /** Prefills the login form with the account just registered. */
  account: string | null;
  /** Prefills the register dialog's invite code. */
  inviteCode: string | null;
}

const closed: AuthDialogState = {
  open: null,
  redirect: null,
  notice: null,
  noticeType: 'success',
  account: null,
  inviteCode: null,
};

export const authDialogStore = createStore<AuthDialogState>(() => closed);

export function useAuthDialog<T>(selector: (state: AuthDialogState) => T): T {
  return useStore(authDialogStore, selector);
}

export interface LoginDialogOptions {
  redirect?: string | null;
  notice?: string | null;
  noticeType?: 'success' | 'info';
  account?: string | null;
}

export function openLoginDialog(options: LoginDialogOptions = {}): void {
  authDialogStore.setState({
    ...closed,
    open: 'login',
    redirect: options.redirect ?? null,
    notice: options.notice ?? null,
    noticeType: options.noticeType ?? 'success',
    account: options.account ?? null,
  });
}

export function openRegisterDialog(options: { inviteCode?: string | null } = {}): void {
  authDialogStore.setState({ ...closed, open: 'register', inviteCode: options.inviteCode ?? null });
}

export function closeAuthDialog(): void {
  authDialogStore.setState(closed);
}
