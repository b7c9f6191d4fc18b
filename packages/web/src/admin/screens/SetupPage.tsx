import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { Alert, Button, Form, Input, Space, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { AdminSetupReply } from '@fairex/shared/api/admin.ts';
import { adminApi } from '../../data/admin-api.ts';
import { AuthFrame, FormError } from '../components/AuthFrame.tsx';
import { errorText } from '../components/common.tsx';
import { useAdminT } from '../i18n.ts';
import { storeAdminToken } from '../session.ts';

/** The set-up token from the link's fragment (`#token=...`), which the browser never sends to a server. */
function tokenFromFragment(): string | null {
  const token = new URLSearchParams(globalThis.location.hash.replace(/^#/, '')).get('token');
  return token !== null && token !== '' ? token : null;
}

/**
 * The first administrator, from the one-time link a server start prints while there is none: a username and
 * a password make the administrator and a session; the sign-in page then enrols the authenticator app.
 */
export default function SetupPage() {
  const t = useAdminT();
  const navigate = useNavigate();
  const [token] = useState(tokenFromFragment);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [done, setDone] = useState<AdminSetupReply | null>(null);

  const submit = async (values: { username: string; password: string }) => {
    if (token === null) return;
    setPending(true);
    setError(null);
    try {
      const answer = await adminApi.post<AdminSetupReply>('/admin/setup', { token, ...values });
      // The link is spent: it must not stay in the address bar or the history.
      globalThis.history.replaceState(null, '', globalThis.location.pathname);
      storeAdminToken(answer.token);
      setDone(answer);
    } catch (caught) {
      setError(errorText(caught));
    } finally {
      setPending(false);
    }
  };

  return (
    <AuthFrame testId="admin-setup" heading={<Typography.Text strong>{t('setup.title')}</Typography.Text>}>
      {token === null && (
        <Alert type="warning" showIcon message={t('setup.noToken')} data-testid="admin-setup-no-token" />
      )}
      {token !== null && done === null && (
        <Form layout="vertical" onFinish={submit} requiredMark={false}>
          <Typography.Paragraph type="secondary">{t('setup.intro')}</Typography.Paragraph>
          <FormError message={error} testId="admin-setup-error" />
          <Form.Item
            name="username"
            label={t('setup.username')}
            extra={t('setup.usernameRule')}
            rules={[{ required: true, message: t('login.usernameRequired') }]}
          >
            <Input
              prefix={<UserOutlined />}
              autoComplete="username"
              autoFocus
              data-testid="admin-setup-username"
            />
          </Form.Item>
          <Form.Item
            name="password"
            label={t('setup.password')}
            extra={t('setup.passwordRule')}
            rules={[{ required: true, min: 12, message: t('setup.passwordRule') }]}
          >
            <Input.Password
              prefix={<LockOutlined />}
              autoComplete="new-password"
              data-testid="admin-setup-password"
            />
          </Form.Item>
          <Form.Item
            name="confirm"
            label={t('setup.confirm')}
            dependencies={['password']}
            rules={[
              { required: true, message: t('setup.mismatch') },
              ({ getFieldValue }) => ({
                validator: (_, value) =>
                  value === getFieldValue('password')
                    ? Promise.resolve()
                    : Promise.reject(new Error(t('setup.mismatch'))),
              }),
            ]}
          >
            <Input.Password
              prefix={<LockOutlined />}
              autoComplete="new-password"
              data-testid="admin-setup-confirm"
            />
          </Form.Item>
          <Button
            type="primary"
            htmlType="submit"
            block
            size="large"
            loading={pending}
            data-testid="admin-setup-submit"
          >
            {t('setup.submit')}
          </Button>
        </Form>
      )}
      {done !== null && (
        <Space direction="vertical" size="middle" className="fx-admin-full">
          <Alert type="success" showIcon message={t('setup.doneTitle', { username: done.admin.username })} />
          <Typography.Text>{t('setup.inviteIntro')}</Typography.Text>
          <Typography.Paragraph copyable className="fx-admin-secret" data-testid="admin-setup-invite-code">
            {done.invite_code}
          </Typography.Paragraph>
          <Button
            type="primary"
            block
            size="large"
            data-testid="admin-setup-next"
            onClick={() => void navigate('/admin/login', { replace: true })}
          >
            {t('setup.next')}
          </Button>
        </Space>
      )}
    </AuthFrame>
  );
}
