import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Form, Input, Modal, Tabs } from 'antd';
import { reloadPageAfter } from '../../app/page-reload.ts';
import { AccountFields, targetOf, type AccountValues } from './AccountFields.tsx';
import { login, useCountries, type AccountKind, type AccountTarget } from '../../data/auth.ts';
import { closeAuthDialog, openRegisterDialog, useAuthDialog } from './auth-dialogs.ts';
import { AFTER_LOGIN_DELAY_MS, storeSession } from './session-actions.ts';
import { TotpField } from './TotpField.tsx';
import { LOGIN_PASSWORD_MAX_LENGTH } from './validation.ts';
import { useMessage } from '../../app/message.tsx';

interface LoginValues extends AccountValues {
  password: string;
  totpCode?: string;
}

interface PendingLogin {
  target: AccountTarget;
  password: string;
}

/** Spec 01 section 2: the login dialog, with e-mail and mobile tabs, area code, password and forgot link. */
export function LoginDialog() {
  const open = useAuthDialog((state) => state.open === 'login');
  const { t } = useTranslation();
  return (
    <Modal
      open={open}
      onCancel={closeAuthDialog}
      footer={null}
      width={440}
      destroyOnHidden
      title={t('auth.loginTitle')}
      className="fx-auth-modal"
      data-testid="login-dialog"
    >
      <LoginDialogBody />
    </Modal>
  );
}

function LoginDialogBody() {
  const { t } = useTranslation();
  const message = useMessage();
  const navigate = useNavigate();
  const [form] = Form.useForm<LoginValues>();
  const { data: countries } = useCountries();
  const notice = useAuthDialog((state) => state.notice);
  const noticeType = useAuthDialog((state) => state.noticeType);
  const redirect = useAuthDialog((state) => state.redirect);
  const account = useAuthDialog((state) => state.account);
  const [kind, setKind] = useState<AccountKind>(
    account !== null && !account.includes('@') ? 'mobile' : 'email',
  );
  // The first step's account and password, kept while the second factor is asked: the password field is
  // not on screen then, so the form's values no longer hold it.
  const [pending, setPending] = useState<PendingLogin | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const onFinish = async (values: LoginValues) => {
    const credentials = pending ?? { target: targetOf(kind, values, countries), password: values.password };
    setSubmitting(true);
    try {
      const reply = await login({ ...credentials, totpCode: values.totpCode });
      if ('totp_required' in reply) {
        setPending(credentials);
        return;
      }
      await storeSession(reply.token, reply.user);
      void message.success(t('auth.loginSuccess'));
      closeAuthDialog();
      if (redirect !== null) void navigate(redirect);
      reloadPageAfter(AFTER_LOGIN_DELAY_MS);
    } catch (error) {
      void message.error((error as Error).message);
    } finally {
      setSubmitting(false);
    }
  };

  const goForgot = () => {
    closeAuthDialog();
    void navigate('/forgetPwd');
  };

  return (
    <Form
      form={form}
      layout="vertical"
      requiredMark={false}
      onFinish={(values) => void onFinish(values)}
      initialValues={account === null ? {} : account.includes('@') ? { email: account } : {}}
      className="fx-auth-form"
    >
      {notice !== null && (
        <Alert
          type={noticeType}
          showIcon
          title={notice}
          className="fx-auth-notice"
          data-testid="login-notice"
        />
      )}
      {pending === null ? (
        <>
          <Tabs
            activeKey={kind}
            onChange={(key) => setKind(key as AccountKind)}
            items={[
              { key: 'email', label: <span data-testid="login-tab-email">{t('auth.tabEmail')}</span> },
              { key: 'mobile', label: <span data-testid="login-tab-mobile">{t('auth.tabMobile')}</span> },
            ]}
          />
          <AccountFields kind={kind} form={form} countries={countries} rules="login" autoFocus />
          <Form.Item
            name="password"
            label={t('auth.password')}
            rules={[{ required: true, message: t('auth.passwordRequired') }]}
          >
            <Input.Password
              placeholder={t('auth.passwordPlaceholder')}
              maxLength={LOGIN_PASSWORD_MAX_LENGTH}
              autoComplete="current-password"
              data-testid="login-password"
            />
          </Form.Item>
          <div className="fx-auth-row">
            <Button type="link" className="fx-auth-link" onClick={goForgot} data-testid="forgot-link">
              {t('auth.forgot')}
            </Button>
          </div>
        </>
      ) : (
        <TotpField />
      )}
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
      <div className="fx-auth-switch">
        {t('auth.noAccount')}{' '}
        <Button
          type="link"
          className="fx-auth-link"
          onClick={() => openRegisterDialog()}
          data-testid="to-register"
        >
          {t('auth.registerNow')}
        </Button>
      </div>
    </Form>
  );
}
