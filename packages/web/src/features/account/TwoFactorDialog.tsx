import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { QRCodeSVG } from 'qrcode.react';
import { Alert, Button, Form, Input, Modal, Spin, Typography } from 'antd';
import { USER_INFO_KEY } from '../../data/auth.ts';
import { confirmTotp, disableTotp, startTotp, type TotpEnrolment } from '../../data/account.ts';
import { useMessage } from '../../app/message.tsx';

/**
 * Two-factor authentication with an authenticator app (beyond the spec, whose Google authenticator item
 * only said "not open"): a QR code and its key, confirmed with a code; turning it off needs the password
 * and a code.
 */
export function TwoFactorDialog({
  open,
  enabled,
  onClose,
}: {
  open: boolean;
  enabled: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      open={open}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
      width={460}
      title={enabled ? t('account.totpDisableTitle') : t('account.totpSetupTitle')}
      data-testid="totp-dialog"
    >
      {enabled ? <DisableForm onDone={onClose} /> : <EnableForm onDone={onClose} />}
    </Modal>
  );
}

function useRefreshInfo() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: USER_INFO_KEY });
}

function EnableForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const message = useMessage();
  const refresh = useRefreshInfo();
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  useEffect(() => {
    let active = true;
    startTotp().then(
      (started) => active && setEnrolment(started),
      (failure: Error) => active && setError(failure.message),
    );
    return () => {
      active = false;
    };
  }, []);

  const onFinish = async ({ code }: { code: string }) => {
    setSubmitting(true);
    try {
      void message.success(await confirmTotp(code));
      await refresh();
      onDone();
    } catch (failure) {
      void message.error((failure as Error).message);
    } finally {
      setSubmitting(false);
    }
  };

  if (error !== null) return <Alert type="error" showIcon title={error} />;
  if (enrolment === null) return <Spin className="fx-totp-loading" />;
  return (
    <Form layout="vertical" requiredMark={false} onFinish={(values) => void onFinish(values)}>
      <p>{t('account.totpStep1')}</p>
      <div className="fx-totp-qr" data-testid="totp-qr">
        <QRCodeSVG value={enrolment.uri} size={176} marginSize={2} bgColor="#ffffff" fgColor="#0b0e17" />
      </div>
      <p className="fx-muted">{t('account.totpSecret')}</p>
      <Typography.Paragraph
        copyable={{ text: enrolment.secret }}
        className="fx-mono fx-totp-secret"
        data-testid="totp-secret"
      >
        {enrolment.secret}
      </Typography.Paragraph>
      <Form.Item
        name="code"
        label={t('account.totpStep2')}
        rules={[
          { required: true, message: t('auth.codeRequired') },
          { pattern: /^\d{6}$/, message: t('auth.codeFormat') },
        ]}
      >
        <Input
          maxLength={6}
          inputMode="numeric"
          autoComplete="one-time-code"
          data-testid="totp-confirm-code"
        />
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={submitting} data-testid="totp-enable-submit">
        {t('account.enable')}
      </Button>
    </Form>
  );
}

function DisableForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const message = useMessage();
  const refresh = useRefreshInfo();
  const [submitting, setSubmitting] = useState(false);
  const onFinish = async ({ code, password }: { code: string; password: string }) => {
    setSubmitting(true);
    try {
      void message.success(await disableTotp(code, password));
      await refresh();
      onDone();
    } catch (failure) {
      void message.error((failure as Error).message);
    } finally {
      setSubmitting(false);
    }
  };
  return (
    <Form layout="vertical" requiredMark={false} onFinish={(values) => void onFinish(values)}>
      <p>{t('account.totpDisableHint')}</p>
      <Form.Item
        name="password"
        label={t('auth.password')}
        rules={[{ required: true, message: t('auth.passwordRequired') }]}
      >
        <Input.Password maxLength={128} autoComplete="current-password" data-testid="totp-disable-password" />
      </Form.Item>
      <Form.Item
        name="code"
        label={t('auth.totpCode')}
        rules={[
          { required: true, message: t('auth.codeRequired') },
          { pattern: /^\d{6}$/, message: t('auth.codeFormat') },
        ]}
      >
        <Input
          maxLength={6}
          inputMode="numeric"
          autoComplete="one-time-code"
          data-testid="totp-disable-code"
        />
      </Form.Item>
      <Button
        danger
        type="primary"
        htmlType="submit"
        block
        loading={submitting}
        data-testid="totp-disable-submit"
      >
        {t('account.disable')}
      </Button>
    </Form>
  );
}
