import { LockOutlined, MoonOutlined, SafetyOutlined, SunOutlined, UserOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, Input, Space, Steps, Typography } from 'antd';
import { QRCodeSVG } from 'qrcode.react';
import { useEffect, useRef, useState } from 'react';
import { useAdminT } from '../i18n.ts';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { setNightMode, usePreferences } from '../../app/preferences/preferences.ts';
import type { AdminLoginReply } from '@fairex/shared/api/admin.ts';
import { adminApi } from '../../data/admin-api.ts';
import type { SessionAnswer } from '../AdminApp.tsx';
import { AuthFrame, FormError } from '../components/AuthFrame.tsx';
import { errorText } from '../components/common.tsx';
import { adminSession, clearAdminSession, storeAdminToken, useAdminSession } from '../session.ts';

type Step = 'password' | 'code' | 'enrol' | 'checking';

/**
 * Sign-in in two steps: the password opens an administrator session, then a code from the authenticator app
 * lets it act. The first sign-in (or the first after a reset) enrols the app: a secret shown once as a QR
 * code, confirmed by a code from it.
 */
export default function LoginPage() {
  const t = useAdminT();
  const token = useAdminSession((state) => state.token);
  const secondFactor = useAdminSession((state) => state.secondFactor);
  const [step, setStep] = useState<Step>(token === null ? 'password' : 'checking');
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const from = (location.state as { from?: string } | null)?.from ?? '/admin/dashboard';

  // A session from earlier in this tab: ask the server how far it got.
  useEffect(() => {
    if (token === null) {
      setStep('password');
      return;
    }
    let cancelled = false;
    adminApi
      .get<SessionAnswer>('/backoffice/session')
      .then((answer) => {
        if (cancelled) return;
        adminSession.setState({
          admin: answer.admin,
          permissions: answer.permissions,
          secondFactor: answer.second_factor,
        });
        setStep(
          answer.second_factor === 'verified'
            ? 'checking'
            : answer.second_factor === 'enrol'
              ? 'enrol'
              : 'code',
        );
      })
      .catch(() => {
        if (!cancelled) setStep('password');
      });
    return () => {
      cancelled = true;
    };
  }, [token]);

  if (token !== null && secondFactor === 'verified') return <Navigate to={from} replace />;

  const finish = async () => {
    adminSession.setState({ secondFactor: 'verified' });
    await queryClient.invalidateQueries({ queryKey: ['admin', 'session'] });
    void navigate(from, { replace: true });
  };

  const current = step === 'password' || step === 'checking' ? 0 : 1;
  return (
    <AuthFrame
      testId="admin-login"
      heading={<Typography.Text type="secondary">{t('login.subtitle')}</Typography.Text>}
      tools={<NightToggle />}
      footer={
        <Typography.Paragraph type="secondary" className="fx-admin-login-note">
          {t('login.note')}
        </Typography.Paragraph>
      }
    >
      <Steps
        size="small"
        current={current}
        className="fx-admin-login-steps"
        items={[{ title: t('login.stepPassword') }, { title: t('login.stepCode') }]}
      />
      {(step === 'password' || step === 'checking') && (
        <PasswordStep onDone={(next) => setStep(next)} busy={step === 'checking'} />
      )}
      {step === 'code' && (
        <CodeStep
          onDone={finish}
          onRestart={() => {
            clearAdminSession();
            setStep('password');
          }}
        />
      )}
      {step === 'enrol' && <EnrolStep onDone={finish} />}
    </AuthFrame>
  );
}

function NightToggle() {
  const nightMode = usePreferences((state) => state.nightMode);
  return (
    <Button
      type="text"
      icon={nightMode ? <SunOutlined /> : <MoonOutlined />}
      data-testid="admin-night-toggle"
      onClick={() => setNightMode(!nightMode)}
    />
  );
}

function PasswordStep({ onDone, busy }: { onDone: (next: Step) => void; busy: boolean }) {
  const t = useAdminT();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const submit = async (values: { username: string; password: string }) => {
    setPending(true);
    setError(null);
    try {
      const answer = await adminApi.post<AdminLoginReply>('/admin/login', values);
      storeAdminToken(answer.token);
      const session = await adminApi.get<SessionAnswer>('/backoffice/session');
      adminSession.setState({
        admin: session.admin,
        permissions: session.permissions,
        secondFactor: session.second_factor,
      });
      onDone(session.second_factor === 'enrol' ? 'enrol' : 'code');
    } catch (caught) {
      setError(errorText(caught));
    } finally {
      setPending(false);
    }
  };
  return (
    <Form layout="vertical" onFinish={submit} requiredMark={false} disabled={busy}>
      <FormError message={error} testId="admin-login-error" />
      <Form.Item
        name="username"
        label={t('login.username')}
        rules={[{ required: true, message: t('login.usernameRequired') }]}
      >
        <Input
          prefix={<UserOutlined />}
          autoComplete="username"
          autoFocus
          data-testid="admin-login-username"
        />
      </Form.Item>
      <Form.Item
        name="password"
        label={t('login.password')}
        rules={[{ required: true, message: t('login.passwordRequired') }]}
      >
        <Input.Password
          prefix={<LockOutlined />}
          autoComplete="current-password"
          data-testid="admin-login-password"
        />
      </Form.Item>
      <Button
        type="primary"
        htmlType="submit"
        block
        size="large"
        loading={pending || busy}
        data-testid="admin-login-submit"
      >
        {t('login.continue')}
      </Button>
    </Form>
  );
}

function CodeForm({
  submitLabel,
  onSubmit,
}: {
  submitLabel: string;
  onSubmit: (code: string) => Promise<void>;
}) {
  const t = useAdminT();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const submit = async ({ code }: { code: string }) => {
    setPending(true);
    setError(null);
    try {
      await onSubmit(code.trim());
    } catch (caught) {
      setError(errorText(caught));
    } finally {
      setPending(false);
    }
  };
  return (
    <Form layout="vertical" onFinish={submit} requiredMark={false}>
      <FormError message={error} testId="admin-code-error" />
      <Form.Item
        name="code"
        label={t('login.code')}
        rules={[{ required: true, pattern: /^\d{6}$/, message: t('login.codeFormat') }]}
      >
        <Input
          prefix={<SafetyOutlined />}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          autoFocus
          className="fx-admin-code-input"
          data-testid="admin-code-input"
        />
      </Form.Item>
      <Button
        type="primary"
        htmlType="submit"
        block
        size="large"
        loading={pending}
        data-testid="admin-code-submit"
      >
        {submitLabel}
      </Button>
    </Form>
  );
}

function CodeStep({ onDone, onRestart }: { onDone: () => Promise<void>; onRestart: () => void }) {
  const t = useAdminT();
  const admin = useAdminSession((state) => state.admin);
  return (
    <Space direction="vertical" size="middle" className="fx-admin-full">
      <Typography.Text>{t('login.codeIntro', { username: admin?.username ?? '' })}</Typography.Text>
      <CodeForm
        submitLabel={t('login.signIn')}
        onSubmit={async (code) => {
          await adminApi.post('/backoffice/second_factor/verify', { code });
          await onDone();
        }}
      />
      <Button type="link" onClick={onRestart} className="fx-admin-link-button">
        {t('login.otherAccount')}
      </Button>
    </Space>
  );
}

function EnrolStep({ onDone }: { onDone: () => Promise<void> }) {
  const t = useAdminT();
  const [enrolment, setEnrolment] = useState<{ secret: string; uri: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Each call makes a new secret; the development double effect must not replace the one on screen.
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    adminApi
      .post<{ secret: string; uri: string }>('/backoffice/second_factor/enrol')
      .then(setEnrolment)
      .catch((caught: unknown) => setError(errorText(caught)));
  }, []);
  if (error !== null) return <Alert type="error" showIcon message={error} />;
  if (enrolment === null) return null;
  return (
    <Space direction="vertical" size="middle" className="fx-admin-full">
      <Alert type="info" showIcon message={t('login.enrolTitle')} description={t('login.enrolIntro')} />
      <div className="fx-admin-qr">
        <QRCodeSVG value={enrolment.uri} size={168} includeMargin bgColor="#ffffff" fgColor="#0b0e17" />
        <div>
          <Typography.Text type="secondary">{t('login.enrolSecret')}</Typography.Text>
          <Typography.Paragraph
            copyable={{ text: enrolment.secret }}
            className="fx-admin-secret"
            data-testid="admin-enrol-secret"
          >
            {enrolment.secret}
          </Typography.Paragraph>
        </div>
      </div>
      <CodeForm
        submitLabel={t('login.enrolConfirm')}
        onSubmit={async (code) => {
          await adminApi.post('/backoffice/second_factor/confirm', { code });
          await onDone();
        }}
      />
    </Space>
  );
}
