import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Form, Input } from 'antd';
import { changePassword } from '../../data/account.ts';
import { PasswordFields } from './PasswordFields.tsx';
import { replaceToken } from './session-actions.ts';
import { useMessage } from '../../app/message.tsx';

interface ChangePasswordValues {
  oldPassword: string;
  password: string;
  rePassword: string;
}

/**
 * Changing the login password: the current one, then the new one twice. The server ends every other
 * session and hands this device a new token.
 */
export function ChangePasswordForm({ onDone }: { onDone?: () => void }) {
  const { t } = useTranslation();
  const message = useMessage();
  const [form] = Form.useForm<ChangePasswordValues>();
  const [submitting, setSubmitting] = useState(false);

  const onFinish = async (values: ChangePasswordValues) => {
    setSubmitting(true);
    try {
      const reply = await changePassword(values);
      replaceToken(reply.token);
      void message.success(`${reply.message} ${t('auth.otherDevicesLoggedOut')}`);
      form.resetFields();
      onDone?.();
    } catch (error) {
      void message.error((error as Error).message);
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Form form={form} layout="vertical" requiredMark={false} onFinish={(values) => void onFinish(values)}>
      <Form.Item
        name="oldPassword"
        label={t('auth.oldPassword')}
        rules={[{ required: true, message: t('auth.passwordRequired') }]}
      >
        <Input.Password maxLength={128} autoComplete="current-password" data-testid="old-password" />
      </Form.Item>
      {/* Spec 02 section 2.13: the set-password inputs take 20 and 16 characters; the rule allows 16. */}
      <PasswordFields isNew firstMaxLength={20} />
      <Button
        type="primary"
        htmlType="submit"
        block
        loading={submitting}
        data-testid="change-password-submit"
      >
        {t('auth.changePasswordSubmit')}
      </Button>
    </Form>
  );
}
