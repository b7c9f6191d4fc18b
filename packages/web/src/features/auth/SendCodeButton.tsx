import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from 'antd';
import { sendCode, type AccountTarget, type CodePurpose } from '../../data/auth.ts';
import { useMessage } from '../../app/message.tsx';

/** Spec 01 section 9 and spec 02 section 4: the send button waits 60 seconds, counting down. */
export const CODE_COUNTDOWN_SECONDS = 60;

/** Seconds left until `endsAtMs`, ticking once a second; 0 when idle. */
export function useCountdown(): { remaining: number; start(seconds: number): void } {
  const [endsAtMs, setEndsAtMs] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (endsAtMs <= now) return;
    const timer = setTimeout(() => setNow(Date.now()), Math.min(1000, endsAtMs - now));
    return () => clearTimeout(timer);
  }, [endsAtMs, now]);
  const remaining = Math.max(0, Math.ceil((endsAtMs - now) / 1000));
  return {
    remaining,
    start(seconds: number) {
      const start = Date.now();
      setNow(start);
      setEndsAtMs(start + seconds * 1000);
    },
  };
}

interface SendCodeButtonProps {
  purpose: CodePurpose;
  /** Checks the form's account fields and returns where the code goes, or null to stay put. */
  target: () => Promise<AccountTarget | null>;
  testId?: string;
}

/** "Send code"; after a send, disabled with a countdown until it may be pressed again. */
export function SendCodeButton({ purpose, target, testId = 'send-code' }: SendCodeButtonProps) {
  const { t } = useTranslation();
  const message = useMessage();
  const { remaining, start } = useCountdown();
  const [sending, setSending] = useState(false);

  const onClick = async () => {
    // Spec 01 section 5: the button is ignored while it is disabled.
    if (sending || remaining > 0) return;
    const destination = await target();
    if (destination === null) return;
    setSending(true);
    try {
      const text = await sendCode(destination, purpose);
      void message.success(text);
      start(CODE_COUNTDOWN_SECONDS);
    } catch (error) {
      void message.error((error as Error).message);
    } finally {
      setSending(false);
    }
  };

  return (
    <Button
      onClick={() => void onClick()}
      disabled={remaining > 0}
      loading={sending}
      data-testid={testId}
      className="fx-code-button"
    >
      {remaining > 0 ? t('auth.resendIn', { seconds: remaining }) : t('auth.sendCode')}
    </Button>
  );
}
