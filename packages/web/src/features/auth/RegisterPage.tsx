import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Button, Form, Tabs } from 'antd';
import { AccountFields, targetOf, validatedTarget, type AccountValues } from './AccountFields.tsx';
import { checkCode, register, useCountries, type AccountKind } from '../../data/auth.ts';
import { openLoginDialog } from './auth-dialogs.ts';
import { AuthPageFrame } from './AuthPageFrame.tsx';
import { AgreementField } from './AgreementField.tsx';
import { InviteCodeField } from './InviteCodeField.tsx';
import { PasswordFields } from './PasswordFields.tsx';
import { CodeInput } from './CodeInput.tsx';
import { isEmail } from './validation.ts';
import { useMessage } from '../../app/message.tsx';

interface RegisterValues extends AccountValues {
  code: string;
  password: string;
  rePassword: string;
  inviteCode?: string;
  agreement?: boolean;
}

/**
 * Spec 01 sections 2 and 5: the register page with country, phone or e-mail, code, password, repeated
 * password, invite code and the agreement. `email` in the query prefills a valid address; `extension_code`
 * (or `code`) prefills the invite code, as registration links do.
 */
export default function RegisterPage() {
  const { t } = useTranslation();
  const message = useMessage();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [form] = Form.useForm<RegisterValues>();
  const { data: countries } = useCountries();
  const [kind, setKind] = useState<AccountKind>('email');
  const [submitting, setSubmitting] = useState(false);
  const queryEmail = params.get('email') ?? '';
  const inviteCode = params.get('extension_code') ?? params.get('code') ?? '';

  const codeTarget = async () => {
    const target = await validatedTarget(form, kind, countries);
    // Spec 01 section 5: a code by e-mail needs a valid address first (register.emailnum).
    if (target === null)
      void message.warning(kind === 'email' ? t('auth.codeNeedsEmail') : t('auth.codeNeedsMobile'));
    return target;
  };

  const onFinish = async (values: RegisterValues) => {
    const target = targetOf(kind, values, countries);
    setSubmitting(true);
    try {
      await checkCode(target, values.code, 'register');
      const text = await register({
        target,
        code: values.code,
        password: values.password,
        rePassword: values.rePassword,
        inviteCode: values.inviteCode ?? '',
      });
      void navigate('/');
      openLoginDialog({ notice: text, account: target.kind === 'email' ? target.email : null });
    } catch (error) {
      void message.error((error as Error).message);
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <AuthPageFrame
      title={t('auth.registerTitle')}
      subtitle={t('auth.registerSubtitle')}
      testId="register-page"
    >
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ email: isEmail(queryEmail) ? queryEmail.trim() : '', inviteCode: inviteCode.trim() }}
        onFinish={(values) => void onFinish(values)}
      >
        <Tabs
          activeKey={kind}
          onChange={(key) => setKind(key as AccountKind)}
          items={[
            { key: 'email', label: <span data-testid="register-tab-email">{t('auth.tabEmail')}</span> },
            { key: 'mobile', label: <span data-testid="register-tab-mobile">{t('auth.tabMobile')}</span> },
          ]}
        />
        <AccountFields kind={kind} form={form} countries={countries} rules="strict" wideCountry />
        <CodeInput purpose="register" target={codeTarget} />
        <PasswordFields />
        <InviteCodeField />
        <AgreementField />
        <Button
          type="primary"
          htmlType="submit"
          block
          size="large"
          loading={submitting}
          data-testid="register-submit"
        >
          {t('auth.submitRegister')}
        </Button>
        <div className="fx-auth-switch">
          {t('auth.haveAccount')}{' '}
          <Button type="link" className="fx-auth-link" onClick={() => openLoginDialog()}>
            {t('auth.loginNow')}
          </Button>
        </div>
      </Form>
    </AuthPageFrame>
  );
}
