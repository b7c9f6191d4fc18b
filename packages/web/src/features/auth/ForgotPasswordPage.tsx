import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Button, Form, Steps, Tabs } from 'antd';
import { AccountFields, targetOf, validatedTarget, type AccountValues } from './AccountFields.tsx';
import {
  checkCode,
  resetPassword,
  useCountries,
  type AccountKind,
  type AccountTarget,
} from '../../data/auth.ts';
import { openLoginDialog } from './auth-dialogs.ts';
import { AuthPageFrame } from './AuthPageFrame.tsx';
import { PasswordFields } from './PasswordFields.tsx';
import { CodeInput } from './CodeInput.tsx';
import { targetLabel } from './target-label.ts';
import { useMessage } from '../../app/message.tsx';

interface VerifyValues extends AccountValues {
  code: string;
}

/**
 * Spec 02 sections 2.13, 4 and 5: (1) the account and a code sent to it, verified; (2) a new password and
 * its repetition. On success the login dialog opens. Serves /forgetPwd and /resetPwd.
 */
export default function ForgotPasswordPage() {
  const { t } = useTranslation();
  const [verified, setVerified] = useState<{ target: AccountTarget; code: string } | null>(null);
  return (
    <AuthPageFrame title={t('auth.forgotTitle')} testId="forgot-page">
      <Steps
        size="small"
        current={verified === null ? 0 : 1}
        items={[{ title: t('auth.forgotStep1') }, { title: t('auth.forgotStep2') }]}
        className="fx-auth-steps"
      />
      {verified === null ? (
        <VerifyStep onVerified={(target, code) => setVerified({ target, code })} />
      ) : (
        <ResetStep target={verified.target} code={verified.code} onBack={() => setVerified(null)} />
      )}
    </AuthPageFrame>
  );
}

function VerifyStep({ onVerified }: { onVerified: (target: AccountTarget, code: string) => void }) {
  const { t } = useTranslation();
  const message = useMessage();
  const [form] = Form.useForm<VerifyValues>();
  const { data: countries } = useCountries();
  const [kind, setKind] = useState<AccountKind>('email');
  const [checking, setChecking] = useState(false);

  const codeTarget = async () => {
    const target = await validatedTarget(form, kind, countries);
    if (target === null) void message.warning(t('auth.recoveryAccountInvalid'));
    return target;
  };

  const onFinish = async (values: VerifyValues) => {
    const target = targetOf(kind, values, countries);
    setChecking(true);
    try {
      await checkCode(target, values.code, 'forget');
      onVerified(target, values.code.trim());
    } catch (error) {
      void message.error((error as Error).message);
    } finally {
      setChecking(false);
    }
  };

  return (
    <Form form={form} layout="vertical" requiredMark={false} onFinish={(values) => void onFinish(values)}>
      <Tabs
        activeKey={kind}
        onChange={(key) => setKind(key as AccountKind)}
        items={[
          { key: 'email', label: <span data-testid="forgot-tab-email">{t('auth.tabEmail')}</span> },
          { key: 'mobile', label: <span data-testid="forgot-tab-mobile">{t('auth.tabMobile')}</span> },
        ]}
      />
      <AccountFields kind={kind} form={form} countries={countries} rules="recovery" wideCountry autoFocus />
      <CodeInput purpose="forget" target={codeTarget} />
      <Button
        type="primary"
        htmlType="submit"
        block
        size="large"
        loading={checking}
        data-testid="forgot-verify"
      >
        {t('auth.verify')}
      </Button>
    </Form>
  );
}

function ResetStep({ target, code, onBack }: { target: AccountTarget; code: string; onBack: () => void }) {
  const { t } = useTranslation();
  const message = useMessage();
  const navigate = useNavigate();
  const [submitting, setSubmitting] = useState(false);

  const onFinish = async (values: { password: string; rePassword: string }) => {
    setSubmitting(true);
    try {
      const text = await resetPassword({
        target,
        code,
        password: values.password,
        rePassword: values.rePassword,
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
    <Form layout="vertical" requiredMark={false} onFinish={(values) => void onFinish(values)}>
      <p className="fx-auth-target" data-testid="forgot-target">
        {t('auth.resettingFor', { target: targetLabel(target) })}
      </p>
      <PasswordFields isNew />
      <Button
        type="primary"
        htmlType="submit"
        block
        size="large"
        loading={submitting}
        data-testid="forgot-submit"
      >
        {t('auth.resetSubmit')}
      </Button>
      <Button type="link" block onClick={onBack}>
        {t('auth.back')}
      </Button>
    </Form>
  );
}
