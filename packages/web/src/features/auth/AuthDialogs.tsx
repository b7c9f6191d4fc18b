import { LoginDialog } from './LoginDialog.tsx';
import { RegisterDialog } from './RegisterDialog.tsx';
import './auth.css';

/** The login and register dialogs; loaded the first time one of them opens (see AuthDialogHost). */
export default function AuthDialogs() {
  return (
    <>
      <LoginDialog />
      <RegisterDialog />
    </>
  );
}
