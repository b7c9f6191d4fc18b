import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { isValidPassword, PASSWORD_MAX_LENGTH } from './validation.ts';

interface PasswordFieldsProps {
  /** Labels for a new password ("New password") rather than a first one ("Password"). */
  isNew?: boolean;
  /** Spec 02 section 2.13: the set-password page's first input takes up to 20 characters. */
  firstMaxLength?: number;
}

/** A password to set and its repetition, with the rules of spec 01 section 5. */
export function PasswordFields({ isNew = false, firstMaxLength = PASSWORD_MAX_LENGTH }: PasswordFieldsProps) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item
        name="password"
        label={isNew ? t('auth.newPassword') : t('auth.password')}
        extra={t('auth.passwordHint')}
        rules={[
          { required: true, message: t('auth.passwordRequired') },
          {
            validator: async (_rule, value: string | undefined) => {
              if (value && !isValidPassword(value)) throw new Error(t('auth.passwordRule'));
            },
          },
        ]}
      >
        <Input.Password maxLength={firstMaxLength} autoComplete="new-password" data-testid="password" />
      </Form.Item>
      <Form.Item
        name="rePassword"
        label={t('auth.repeatPassword')}
        dependencies={['password']}
        rules={[
          { required: true, message: t('auth.repeatRequired') },
          ({ getFieldValue }) => ({
            validator: async (_rule, value: string | undefined) => {
              if (value && value !== getFieldValue('password')) throw new Error(t('auth.repeatMismatch'));
            },
          }),
        ]}
      >
        <Input.Password
          maxLength={PASSWORD_MAX_LENGTH}
          autoComplete="new-password"
          data-testid="re-password"
        />
      </Form.Item>
    </>
  );
}
