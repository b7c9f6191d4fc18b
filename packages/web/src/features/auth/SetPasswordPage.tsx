import { useTranslation } from 'react-i18next';
import { AuthPageFrame } from './AuthPageFrame.tsx';
import { ChangePasswordForm } from './ChangePasswordForm.tsx';
import { RequireLogin } from './RequireLogin.tsx';

/** /setCash: the set-password page of spec 02 section 2.13 (new and repeated password, after the current one). */
export default function SetPasswordPage() {
  const { t } = useTranslation();
  return (
    <RequireLogin>
      <AuthPageFrame
        title={t('auth.setPasswordTitle')}
        subtitle={t('auth.setPasswordSubtitle')}
        testId="set-password-page"
      >
        <ChangePasswordForm />
      </AuthPageFrame>
    </RequireLogin>
  );
}
