import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import type { AccountTarget, CodePurpose } from '../../data/auth.ts';
import { SendCodeButton } from './SendCodeButton.tsx';
import './auth.css';

interface CodeInputProps {
  purpose: CodePurpose;
  /** Where the code goes; null (after showing why) when the form's account is not valid yet. */
  target: () => Promise<AccountTarget | null>;
}

/** The verification code input (form field `code`) with its send button and 60-second countdown. */
export function CodeInput({ purpose, target }: CodeInputProps) {
  const { t } = useTranslation();
  return (
    <Form.Item label={t('auth.code')} required>
      <div className="fx-code-row">
        <Form.Item
          name="code"
          noStyle
          rules={[
            { required: true, message: t('auth.codeRequired') },
            { pattern: /^\s*\d{6}\s*$/, message: t('auth.codeFormat') },
          ]}
        >
          <Input
            placeholder={t('auth.codePlaceholder')}
            maxLength={6}
            inputMode="numeric"
            autoComplete="one-time-code"
            data-testid="code"
          />
        </Form.Item>
        <SendCodeButton purpose={purpose} target={target} />
      </div>
    </Form.Item>
  );
}
