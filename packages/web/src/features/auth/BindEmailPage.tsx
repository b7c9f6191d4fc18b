import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input } from 'antd';
import { bindEmail } from '../../data/account.ts';
import { emailRules } from './AccountFields.tsx';
import { USER_INFO_KEY } from '../../data/auth.ts';
import { AuthPageFrame } from './AuthPageFrame.tsx';
import { RequireLogin } from './RequireLogin.tsx';
import { refreshAccountName } from './session-actions.ts';
import { CodeInput } from './CodeInput.tsx';
import { ACCOUNT_MAX_LENGTH } from './validation.ts';
import { useMessage } from '../../app/message.tsx';

/** Spec 02 sections 2.12 and 5: e-mail, send code (60 s countdown), code, submit. */
export default function BindEmailPage() {
  const { t } = useTranslation();
  return (
    <RequireLogin>
      <AuthPageFrame
        title={t('auth.bindEmailTitle')}
        subtitle={t('auth.bindEmailSubtitle')}
        testId="bind-email-page"
      >
        <BindEmailForm />
      </AuthPageFrame>
    </RequireLogin>
  );
}

function BindEmailForm() {
  const { t } = useTranslation();
  const message = useMessage();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ email: string; code: string }>();
  const [submitting, setSubmitting] = useState(false);

  const codeTarget = async () => {
    try {
      const { email } = await form.validateFields(['email']);
      return { kind: 'email' as const, email: email.trim() };
    } catch {
      void message.warning(t('auth.codeNeedsEmail'));
      return null;
    }
  };

  const onFinish = async (values: { email: string; code: string }) => {
    setSubmitting(true);
    try {
      const text = await bindEmail(values);
      void message.success(text);
      await refreshAccountName().catch(() => undefined);
      await queryClient.invalidateQueries({ queryKey: USER_INFO_KEY });
      void navigate('/accountSet');
    } catch (error) {
      void message.error((error as Error).message);
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Form form={form} layout="vertical" requiredMark={false} onFinish={(values) => void onFinish(values)}>
      <Form.Item name="email" label={t('auth.email')} rules={emailRules(t, 'strict')}>
        <Input
          placeholder={t('auth.emailPlaceholder')}
          maxLength={ACCOUNT_MAX_LENGTH}
          inputMode="email"
          data-testid="bind-email"
        />
      </Form.Item>
      <CodeInput purpose="bind" target={codeTarget} />
      <Button
        type="primary"
        htmlType="submit"
        block
        size="large"
        loading={submitting}
        data-testid="bind-submit"
      >
        {t('auth.bindSubmit')}
      </Button>
    </Form>
  );
}
