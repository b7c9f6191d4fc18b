import { Checkbox, Form } from 'antd';
import { useTranslation } from 'react-i18next';

/** Spec 01 section 5: registering needs the agreement ticked, on the register page and in the dialog. */
export function AgreementField() {
  const { t } = useTranslation();
  return (
    <Form.Item
      name="agreement"
      valuePropName="checked"
      rules={[
        {
          validator: async (_rule, value: boolean | undefined) => {
            if (!value) throw new Error(t('auth.agreementRequired'));
          },
        },
      ]}
    >
      <Checkbox data-testid="agreement">{t('auth.agreement')}</Checkbox>
    </Form.Item>
  );
}
