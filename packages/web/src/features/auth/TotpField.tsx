import { Alert, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';

/** The second step of logging in when two-factor authentication is on. */
export function TotpField() {
  const { t } = useTranslation();
  return (
    <>
      <Alert type="info" showIcon title={t('auth.totpPrompt')} className="fx-auth-notice" />
      <Form.Item
        name="totpCode"
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
          autoFocus
          data-testid="totp-code"
        />
      </Form.Item>
    </>
  );
}
