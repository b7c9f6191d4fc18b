import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRegisterConfig } from '../../data/auth.ts';
import { isInviteCode } from './validation.ts';

/**
 * Spec 01 section 5: the invite code is required. An exchange may switch that off (INVITE_CODE_REQUIRED);
 * the server then accepts an empty field, and it still refuses a malformed one here.
 */
export function InviteCodeField() {
  const { t } = useTranslation();
  // Until the answer is in, the spec's rule (required) holds.
  const required = useRegisterConfig().data?.invite_code_required ?? true;
  return (
    <Form.Item
      name="inviteCode"
      label={t('auth.inviteCode')}
      normalize={(value: string) => value.trim()}
      rules={[
        { required, message: t('auth.inviteRequired') },
        {
          validator: async (_rule, value: string | undefined) => {
            if (value && !isInviteCode(value)) throw new Error(t('auth.inviteInvalid'));
          },
        },
      ]}
    >
      <Input
        placeholder={required ? t('auth.inviteCodePlaceholder') : t('auth.inviteCodeOptional')}
        maxLength={16}
        autoComplete="off"
        data-testid="invite-code"
      />
    </Form.Item>
  );
}
