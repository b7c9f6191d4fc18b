import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Input, Space } from 'antd';
import { sendSecurityCode, useWalletProtection } from '../../data/wallet.ts';
import type { SecondFactorCodes } from '../../data/wallet.ts';
import { useMessage } from '../../app/message.tsx';
import { CODE_COUNTDOWN_SECONDS, useCountdown } from '../auth/SendCodeButton.tsx';

interface SecondFactorFieldProps {
  value: string;
  onChange(value: string): void;
  /** Test ids: `<prefix>-totp`, or `<prefix>-code` with its `<prefix>-send-code` button. */
  testIdPrefix: string;
}

/**
 * The second factor that adding a withdrawal address and withdrawing need besides the session: the
 * authenticator's code when the account has one, otherwise a code the server sends by e-mail or SMS on
 * "Send code" (ten minutes, used once). Which one is the server's answer (GET /wallet/protection).
 */
export function SecondFactorField({ value, onChange, testIdPrefix }: SecondFactorFieldProps) {
  const { t } = useTranslation();
  const message = useMessage();
  const protection = useWalletProtection();
  const { remaining, start } = useCountdown();
  const [sending, setSending] = useState(false);
  const method = protection.data?.method;
  if (method === undefined) return null;

  if (method === 'totp') {
    return (
      <div className="fx-wallet-field">
        <label className="fx-wallet-field-label" htmlFor={`${testIdPrefix}-totp`}>
          {t('wallet.totpCode')}
        </label>
        <Input
          id={`${testIdPrefix}-totp`}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          inputMode="numeric"
          maxLength={6}
          autoComplete="one-time-code"
          data-testid={`${testIdPrefix}-totp`}
        />
      </div>
    );
  }

  const send = async () => {
    if (sending || remaining > 0) return;
    setSending(true);
    try {
      void message.success(await sendSecurityCode());
      start(CODE_COUNTDOWN_SECONDS);
    } catch (error) {
      void message.error((error as Error).message);
    } finally {
      setSending(false);
    }
  };
  const destination = protection.data?.destination ?? null;

  return (
    <div className="fx-wallet-field">
      <label className="fx-wallet-field-label" htmlFor={`${testIdPrefix}-code`}>
        {method === 'sms' ? t('wallet.securityCodeSms') : t('wallet.securityCodeEmail')}
      </label>
      <Space.Compact style={{ width: '100%' }}>
        <Input
          id={`${testIdPrefix}-code`}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          inputMode="numeric"
          maxLength={6}
          autoComplete="one-time-code"
          data-testid={`${testIdPrefix}-code`}
        />
        <Button
          onClick={() => void send()}
          disabled={remaining > 0}
          loading={sending}
          data-testid={`${testIdPrefix}-send-code`}
        >
          {remaining > 0 ? t('auth.resendIn', { seconds: remaining }) : t('auth.sendCode')}
        </Button>
      </Space.Compact>
      {destination === null ? null : (
        <div className="fx-wallet-note">{t('wallet.securityCodeTo', { destination })}</div>
      )}
    </div>
  );
}

/** The request fields for the code typed into a SecondFactorField, by the account's method. */
export function secondFactorCodes(
  method: 'totp' | 'email' | 'sms' | undefined,
  code: string,
): SecondFactorCodes {
  const trimmed = code.trim();
  if (trimmed === '') return {};
  return method === 'totp' ? { totpCode: trimmed } : { code: trimmed };
}
