import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Form, Modal } from 'antd';
import { AccountFields, validatedTarget, targetOf, type AccountValues } from '../auth/AccountFields.tsx';
import { useCountries, USER_INFO_KEY } from '../../data/auth.ts';
import { CodeInput } from '../auth/CodeInput.tsx';
import { refreshAccountName } from '../auth/session-actions.ts';
import { bindMobile } from '../../data/account.ts';
import { useMessage } from '../../app/message.tsx';

/** Binding a mobile number (beyond the spec, which shows the bound phone): the number and a code sent to it. */
export function BindMobileDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      open={open}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
      width={460}
      title={t('auth.bindMobileTitle')}
      data-testid="bind-mobile-dialog"
    >
      <BindMobileForm onDone={onClose} />
    </Modal>
  );
}

function BindMobileForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const message = useMessage();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<AccountValues & { code: string }>();
  const { data: countries } = useCountries();
  const [submitting, setSubmitting] = useState(false);

  const codeTarget = async () => {
    const target = await validatedTarget(form, 'mobile', countries);
    if (target === null) void message.warning(t('auth.codeNeedsMobile'));
    return target;
  };

  const onFinish = async (values: AccountValues & { code: string }) => {
    const target = targetOf('mobile', values, countries);
    if (target.kind !== 'mobile') return;
    setSubmitting(true);
    try {
      void message.success(
        await bindMobile({ areaCode: target.areaCode, mobile: target.mobile, code: values.code }),
      );
      await refreshAccountName().catch(() => undefined);
      await queryClient.invalidateQueries({ queryKey: USER_INFO_KEY });
      onDone();
    } catch (error) {
      void message.error((error as Error).message);
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Form form={form} layout="vertical" requiredMark={false} onFinish={(values) => void onFinish(values)}>
      <AccountFields kind="mobile" form={form} countries={countries} rules="strict" wideCountry />
      <CodeInput purpose="bind" target={codeTarget} />
      <Button type="primary" htmlType="submit" block loading={submitting} data-testid="bind-mobile-submit">
        {t('auth.bindSubmit')}
      </Button>
    </Form>
  );
}
