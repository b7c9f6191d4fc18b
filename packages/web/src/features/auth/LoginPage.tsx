import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Button, Form, Input } from 'antd';
import { reloadPageAfter } from '../../app/page-reload.ts';
import { safeRedirectPath } from '../../app/routes.ts';
import { login } from '../../data/auth.ts';
import { openRegisterDialog } from './auth-dialogs.ts';
import { AuthPageFrame } from './AuthPageFrame.tsx';
import { AFTER_LOGIN_DELAY_MS, storeSession } from './session-actions.ts';
import { TotpField } from './TotpField.tsx';
import { ACCOUNT_MAX_LENGTH, LOGIN_PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './validation.ts';
import { useMessage } from '../../app/message.tsx';

interface LoginPageValues {
  account: string;
  password: string;
  totpCode?: string;
}

/**
 * Spec 01 sections 2 and 5: the login page, one account field and a password. The account is not empty
 * and at most 120 characters, the password at least 6 and at most 16; values are trimmed.
 * `account_number` in the query prefills the account; a successful login goes home.
 */
export default function LoginPage() {
  const { t } = useTranslation();
  const message = useMessage();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [form] = Form.useForm<LoginPageValues>();
  const [totpStep, setTotpStep] = useState(false);
  const [submitting, setSubmitting] = useState(false);

  const onFinish = async (values: LoginPageValues) => {
    setSubmitting(true);
    try {
      const reply = await login({
        account: values.account.trim(),
        password: values.password.trim(),
        totpCode: values.totpCode,
      });
      if ('totp_required' in reply) {
        setTotpStep(true);
        return;
      }
      await storeSession(reply.token, reply.user);
      void message.success(t('auth.loginSuccess'));
      void navigate(safeRedirectPath(params.get('redirect')) ?? '/');
      reloadPageAfter(AFTER_LOGIN_DELAY_MS);
    } catch (error) {
      void message.error((error as Error).message);
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <AuthPageFrame title={t('auth.loginTitle')} testId="login-page">
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ account: params.get('account_number') ?? '' }}
        onFinish={(values) => void onFinish(values)}
      >
        <div hidden={totpStep}>
          <Form.Item
            name="account"
            label={t('auth.account')}
            normalize={(value: string) => value.trimStart()}
            rules={[{ required: true, whitespace: true, message: t('auth.enterAccount') }]}
          >
            <Input
              placeholder={t('auth.accountPlaceholder')}
              maxLength={ACCOUNT_MAX_LENGTH}
              autoComplete="username"
              data-testid="login-account"
            />
          </Form.Item>
          <Form.Item
            name="password"
            label={t('auth.password')}
            rules={[
              { required: true, message: t('auth.passwordRequired') },
              { min: PASSWORD_MIN_LENGTH, message: t('auth.passwordShort') },
            ]}
          >
            <Input.Password
              maxLength={LOGIN_PASSWORD_MAX_LENGTH}
              autoComplete="current-password"
              data-testid="login-password"
            />
          </Form.Item>
        </div>
        {totpStep && <TotpField />}
        <Button
          type="primary"
          htmlType="submit"
          block
          size="large"
          loading={submitting}
          data-testid="login-submit"
        >
          {t('auth.submitLogin')}
        </Button>
        <div className="fx-auth-page-links">
          <Link to="/forgetPwd" data-testid="forgot-link">
            {t('auth.forgot')}
          </Link>
          <Button type="link" className="fx-auth-link" onClick={() => openRegisterDialog()}>
            {t('auth.registerNow')}
          </Button>
        </div>
      </Form>
    </AuthPageFrame>
  );
}
