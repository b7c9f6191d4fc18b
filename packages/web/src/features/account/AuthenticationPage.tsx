import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, Input, Result, Skeleton } from 'antd';
import { ClockCircleOutlined } from '@ant-design/icons';
import { RequireLogin } from '../auth/RequireLogin.tsx';
import { USER_INFO_KEY } from '../../data/auth.ts';
import { isCardId } from '../auth/validation.ts';
import { AccountLayout } from './AccountLayout.tsx';
import { CENTER_KEY, submitRealName, useRealNameCenter, type RealNameCenter } from '../../data/account.ts';
import { PhotoUpload } from './PhotoUpload.tsx';
import { useMessage } from '../../app/message.tsx';

/** Spec 01 sections 2, 4 and 5: real-name verification. review_status 0 form, 1 under review, 2 approved. */
export default function AuthenticationPage() {
  const { t } = useTranslation();
  return (
    <RequireLogin>
      <AccountLayout title={t('account.realNameTitle')} testId="authentication">
        <RealNameContent />
      </AccountLayout>
    </RequireLogin>
  );
}

function RealNameContent() {
  const { t } = useTranslation();
  const { data: center, error } = useRealNameCenter();
  // Spec 01 section 4: before the status has loaded it is 3, which shows nothing but a placeholder.
  const status = center?.review_status ?? 3;
  if (error) return <p className="fx-account-error">{error.message}</p>;
  if (status === 3 || center === undefined) return <Skeleton active />;
  if (status === 1) {
    return (
      <Result
        icon={<ClockCircleOutlined />}
        title={t('account.pendingTitle')}
        subTitle={t('account.pendingBody', { name: center.name ?? '', cardId: center.card_id ?? '' })}
        data-testid="real-name-pending"
      />
    );
  }
  if (status === 2) {
    return (
      <Result
        status="success"
        title={t('account.approvedTitle')}
        subTitle={t('account.approvedBody', { name: center.name ?? '', cardId: center.card_id ?? '' })}
        data-testid="real-name-approved"
      />
    );
  }
  return <RealNameForm center={center} />;
}

interface RealNameValues {
  name: string;
  cardId: string;
  front?: string;
  reverse?: string;
  hand?: string;
}

function RealNameForm({ center }: { center: RealNameCenter }) {
  const { t } = useTranslation();
  const message = useMessage();
  const queryClient = useQueryClient();
  const [submitting, setSubmitting] = useState(false);
  const photoRule = { required: true, message: t('account.photoRequired') };

  const onFinish = async (values: RealNameValues) => {
    if (!values.front || !values.reverse || !values.hand) return;
    setSubmitting(true);
    try {
      const text = await submitRealName({
        name: values.name,
        cardId: values.cardId,
        front: values.front,
        reverse: values.reverse,
        hand: values.hand,
      });
      void message.success(text);
      await queryClient.invalidateQueries({ queryKey: CENTER_KEY });
      await queryClient.invalidateQueries({ queryKey: USER_INFO_KEY });
    } catch (error) {
      void message.error((error as Error).message);
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Form
      layout="vertical"
      requiredMark={false}
      onFinish={(values) => void onFinish(values)}
      className="fx-real-name-form"
    >
      {center.reject_reason !== null && (
        <div data-testid="real-name-rejected">
          <Alert
            type="warning"
            showIcon
            title={t('account.rejectedTitle')}
            description={t('account.rejectedReason', { reason: center.reject_reason })}
            className="fx-real-name-alert"
          />
        </div>
      )}
      <Form.Item
        name="name"
        label={t('account.name')}
        rules={[{ required: true, whitespace: true, message: t('account.nameRequired') }]}
      >
        <Input
          maxLength={100}
          placeholder={t('account.namePlaceholder')}
          autoComplete="name"
          data-testid="real-name"
        />
      </Form.Item>
      <Form.Item
        name="cardId"
        label={t('account.cardId')}
        rules={[
          { required: true, whitespace: true, message: t('account.cardIdRequired') },
          {
            validator: async (_rule, value: string | undefined) => {
              if (value?.trim() && !isCardId(value)) throw new Error(t('account.cardIdInvalid'));
            },
          },
        ]}
      >
        <Input
          maxLength={40}
          placeholder={t('account.cardIdPlaceholder')}
          autoComplete="off"
          data-testid="card-id"
        />
      </Form.Item>
      <div className="fx-photo-row">
        <Form.Item name="front" rules={[photoRule]}>
          <PhotoUpload label={t('account.front')} testId="photo-front" />
        </Form.Item>
        <Form.Item name="reverse" rules={[photoRule]}>
          <PhotoUpload label={t('account.back')} testId="photo-back" />
        </Form.Item>
        <Form.Item name="hand" rules={[photoRule]}>
          <PhotoUpload label={t('account.hand')} testId="photo-hand" />
        </Form.Item>
      </div>
      <p className="fx-muted">{t('account.photoHint')}</p>
      <Button
        type="primary"
        htmlType="submit"
        size="large"
        loading={submitting}
        data-testid="real-name-submit"
      >
        {t('account.submit')}
      </Button>
    </Form>
  );
}
