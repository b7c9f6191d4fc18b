import type { MouseEvent } from 'react';
import { openLoginDialog, openRegisterDialog } from '../../features/auth/auth-dialogs.ts';

/** The header's login and sign-up links open the dialogs; the addresses still work without script. */
export function openDialog(event: MouseEvent, which: 'login' | 'register'): void {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  if (which === 'login') openLoginDialog();
  else openRegisterDialog();
}
