import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Form, Modal, Steps, Tabs } from 'antd';
import { AccountFields, targetOf, type AccountValues } from './AccountFields.tsx';
import {
  checkAccount,
  checkCode,
  register,
  useCountries,
  useRegisterConfig,
  type AccountKind,
  type AccountTarget,
} from '../../data/auth.ts';
import { closeAuthDialog, openLoginDialog, useAuthDialog } from './auth-dialogs.ts';
import { AgreementField } from './AgreementField.tsx';
import { InviteCodeField } from './InviteCodeField.tsx';
import { PasswordFields } from './PasswordFields.tsx';
import { CodeInput } from './CodeInput.tsx';
import { targetLabel } from './target-label.ts';
import { useMessage } from '../../app/message.tsx';

interface StepTwoValues {
  code: string;
  password: string;
  rePassword: string;
  inviteCode?: string;
  agreement?: boolean;
}

/**
 * Spec 01 sections 2 and 4: two steps. The account is checked before step 2; step 2 sends and checks the
 * code, then registers. Closing starts over at step 1; success opens the login dialog with a message.
 * When the exchange requires an invite code, step 1 says so (and where one comes from) before any code
 * is sent; step 2, like the register page, needs the agreement ticked (spec 01 section 5).
 */
export function RegisterDialog() {
  const open = useAuthDialog((state) => state.open === 'register');
  const { t } = useTranslation();
  return (
    <Modal
      open={open}
      onCancel={closeAuthDialog}
      footer={null}
      width={460}
      destroyOnHidden
      title={t('auth.registerTitle')}
      className="fx-auth-modal"
      data-testid="register-dialog"
    >
      <RegisterDialogBody />
    </Modal>
  );
}

function RegisterDialogBody() {
  const { t } = useTranslation();
  const [target, setTarget] = useState<AccountTarget | null>(null);
  return (
    <div className="fx-auth-form">
      <Steps
        size="small"
        current={target === null ? 0 : 1}
        items={[{ title: t('auth.stepAccount') }, { title: t('auth.stepVerify') }]}
        className="fx-auth-steps"
      />
      {target === null ? (
        <StepOne onNext={setTarget} />
      ) : (
        <StepTwo target={target} onBack={() => setTarget(null)} />
      )}
    </div>
  );
}

function StepOne({ onNext }: { onNext: (target: AccountTarget) => void }) {
  const { t } = useTranslation();
  const message = useMessage();
  const [form] = Form.useForm<AccountValues>();
  const { data: countries } = useCountries();
  const [kind, setKind] = useState<AccountKind>('email');
  const [checking, setChecking] = useState(false);

  const onFinish = async (values: AccountValues) => {
    const target = targetOf(kind, values, countries);
    setChecking(true);
    try {
      await checkAccount(target);
      onNext(target);
    } catch (error) {
      void message.error((error as Error).message);
    } finally {
      setChecking(false);
    }
  };

  return (
    <Form form={form} layout="vertical" requiredMark={false} onFinish={(values) => void onFinish(values)}>
      <InviteNotice />
      <Tabs
        activeKey={kind}
        onChange={(key) => setKind(key as AccountKind)}
        items={[
          { key: 'email', label: <span data-testid="register-tab-email">{t('auth.tabEmail')}</span> },
          { key: 'mobile', label: <span data-testid="register-tab-mobile">{t('auth.tabMobile')}</span> },
        ]}
      />
      <AccountFields kind={kind} form={form} countries={countries} rules="strict" autoFocus />
      <Button
        type="primary"
        htmlType="submit"
        block
        size="large"
        loading={checking}
        data-testid="register-next"
      >
        {t('auth.next')}
      </Button>
      <div className="fx-auth-switch">
        {t('auth.haveAccount')}{' '}
        <Button type="link" className="fx-auth-link" onClick={() => openLoginDialog()} data-testid="to-login">
          {t('auth.loginNow')}
        </Button>
      </div>
    </Form>
  );
}

function StepTwo({ target, onBack }: { target: AccountTarget; onBack: () => void }) {
  const { t } = useTranslation();
  const message = useMessage();
  const [form] = Form.useForm<StepTwoValues>();
  const inviteCode = useAuthDialog((state) => state.inviteCode);
  const [submitting, setSubmitting] = useState(false);

  const onFinish = async (values: StepTwoValues) => {
    setSubmitting(true);
    try {
      // Spec 01 section 5: the code is verified, then registration sent.
      await checkCode(target, values.code, 'register');
      const text = await register({
        target,
        code: values.code,
        password: values.password,
        rePassword: values.rePassword,
        inviteCode: values.inviteCode ?? '',
      });
      openLoginDialog({ notice: text, account: target.kind === 'email' ? target.email : null });
    } catch (error) {
      void message.error((error as Error).message);
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Form
      form={form}
      layout="vertical"
      requiredMark={false}
      onFinish={(values) => void onFinish(values)}
      initialValues={{ inviteCode: inviteCode ?? '' }}
    >
      <p className="fx-auth-target" data-testid="register-target">
        {t('auth.codeSentTo', { target: targetLabel(target) })}
      </p>
      <CodeInput purpose="register" target={async () => target} />
      <PasswordFields />
      <InviteCodeField />
      <AgreementField />
      <Button
        type="primary"
        htmlType="submit"
        block
        size="large"
        loading={submitting}
        data-testid="register-submit"
      >
        {t('auth.submitRegister')}
      </Button>
      <Button type="link" block onClick={onBack} data-testid="register-back">
        {t('auth.back')}
      </Button>
    </Form>
  );
}

/**
 * Step 1's word on invite codes, when the exchange requires one: that it is needed, and where it comes
 * from (an existing user's account centre or their invitation link), or that the link's code is filled in.
 */
function InviteNotice() {
  const { t } = useTranslation();
  const required = useRegisterConfig().data?.invite_code_required === true;
  const inviteCode = useAuthDialog((state) => state.inviteCode);
  if (!required) return null;
  return (
    <Alert
      type="info"
      showIcon
      className="fx-auth-notice"
      data-testid="invite-notice"
      title={inviteCode ? t('auth.inviteFromLink', { code: inviteCode }) : t('auth.inviteNeeded')}
    />
  );
}
