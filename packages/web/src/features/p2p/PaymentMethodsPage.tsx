import { useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, Input, Modal, Popconfirm, Segmented, type ButtonProps } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import {
  P2P_KEY,
  PAYMENT_METHODS,
  addPaymentMethod,
  deletePaymentMethod,
  fetchOrderImage,
  uploadOrderImage,
  usePaymentMethods,
  type P2pMethod,
} from '../../data/p2p.ts';
import { useRealNameCenter } from '../../data/account.ts';
import { useMessage } from '../../app/message.tsx';
import { AccountLayout } from '../account/AccountLayout.tsx';
import { RequireLogin } from '../auth/RequireLogin.tsx';
import { EmptyNote, Spinner } from '../../components/trading/PanelStates.tsx';
import { PrivateImage } from './ChatPanel.tsx';
import { MethodTag, useSend } from './parts.tsx';
import { maskAccount } from './p2p-math.ts';
import './p2p.css';

// The account centre's payment methods (/userSetting): bank card, Alipay, WeChat Pay, each held in the
// user's approved real name (the server refuses another name). Buyers see a method only inside an order.

export default function PaymentMethodsPage() {
  const { t } = useTranslation();
  return (
    <AccountLayout title={t('p2p.methods.title')} testId="p2p-methods-page">
      <RequireLogin>
        <Methods />
      </RequireLogin>
    </AccountLayout>
  );
}

function Methods() {
  const { t } = useTranslation();
  const message = useMessage();
  const queryClient = useQueryClient();
  const methods = usePaymentMethods();
  const center = useRealNameCenter();
  const [adding, setAdding] = useState(false);
  const approved = center.data?.review_status === 2;
  const loadImage = (image: string) => fetchOrderImage(image);

  const remove = async (id: number) => {
    try {
      await deletePaymentMethod(id);
      void message.success(t('p2p.methods.deleted'));
      await queryClient.invalidateQueries({ queryKey: [...P2P_KEY, 'methods'] });
    } catch (error) {
      void message.error((error as Error).message);
    }
  };

  return (
    <div data-testid="p2p-methods">
      <p className="fx-p2p-note">{t('p2p.methods.intro')}</p>
      {center.data && !approved && (
        <Alert
          type="warning"
          showIcon
          title={
            <span>
              {t('p2p.methods.needRealName')} <Link to="/authentication">{t('p2p.methods.verify')}</Link>
            </span>
          }
        />
      )}
      <div className="fx-p2p-card-head">
        <span />
        <Button
          type="primary"
          icon={<PlusOutlined />}
          disabled={!approved}
          onClick={() => setAdding(true)}
          data-testid="p2p-method-add"
        >
          {t('p2p.methods.add')}
        </Button>
      </div>
      {methods.isPending ? (
        <Spinner label={t('p2p.loading')} />
      ) : methods.isError ? (
        <Alert type="error" showIcon title={methods.error.message} />
      ) : methods.data.filter((method) => method.active).length === 0 ? (
        <EmptyNote>{t('p2p.methods.none')}</EmptyNote>
      ) : (
        <div className="fx-p2p-method-list">
          {methods.data
            .filter((method) => method.active)
            .map((method) => (
              <div key={method.id} className="fx-p2p-method-card" data-testid={`p2p-my-method-${method.id}`}>
                <MethodTag method={method.method} />
                <dl>
                  <dt>{t('p2p.methods.holder')}</dt>
                  <dd>{method.holder_name}</dd>
                  <dt>{t(`p2p.methods.accountOf.${method.method}`)}</dt>
                  <dd>{maskAccount(method.account)}</dd>
                  {method.bank_name !== '' && (
                    <>
                      <dt>{t('p2p.methods.bankName')}</dt>
                      <dd>{method.bank_name}</dd>
                    </>
                  )}
                </dl>
                {method.qr_image !== null && (
                  <PrivateImage image={method.qr_image} load={loadImage} alt={t('p2p.methods.qr')} />
                )}
                <Popconfirm title={t('p2p.methods.deleteConfirm')} onConfirm={() => void remove(method.id)}>
                  <Button size="small" danger>
                    {t('p2p.methods.delete')}
                  </Button>
                </Popconfirm>
              </div>
            ))}
        </div>
      )}
      {adding && (
        <AddMethod
          holder={center.data?.name ?? ''}
          onClose={() => setAdding(false)}
          onAdded={() => {
            setAdding(false);
            void message.success(t('p2p.methods.added'));
            void queryClient.invalidateQueries({ queryKey: [...P2P_KEY, 'methods'] });
          }}
        />
      )}
    </div>
  );
}

function AddMethod({
  holder,
  onClose,
  onAdded,
}: {
  holder: string;
  onClose: () => void;
  onAdded: () => void;
}) {
  const { t } = useTranslation();
  const [method, setMethod] = useState<P2pMethod>('bank');
  const [account, setAccount] = useState('');
  const [bankName, setBankName] = useState('');
  const [qr, setQr] = useState<string | null>(null);
  const { busy, error, setError, send } = useSend();
  const loadImage = (image: string) => fetchOrderImage(image);

  const submit = async () => {
    if (account.trim().length < 3) return setError(t('p2p.methods.needAccount'));
    if (method === 'bank' && bankName.trim() === '') return setError(t('p2p.methods.needBank'));
    await send(async () => {
      await addPaymentMethod({
        method,
        holder_name: holder,
        account: account.trim(),
        bank_name: method === 'bank' ? bankName.trim() : undefined,
        qr_image: method !== 'bank' && qr !== null ? qr : undefined,
      });
      onAdded();
    });
  };

  return (
    <Modal
      open
      onCancel={onClose}
      title={t('p2p.methods.add')}
      okText={t('p2p.methods.save')}
      onOk={() => void submit()}
      confirmLoading={busy}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'p2p-method-save' } as ButtonProps}
    >
      <Form layout="vertical">
        <Form.Item label={t('p2p.paymentMethod')}>
          <Segmented
            value={method}
            onChange={(value) => setMethod(value as P2pMethod)}
            options={PAYMENT_METHODS.map((value) => ({
              value,
              label: <span data-testid={`p2p-method-kind-${value}`}>{t(`p2p.method.${value}`)}</span>,
            }))}
          />
        </Form.Item>
        <Form.Item label={t('p2p.methods.holder')} extra={t('p2p.methods.holderRule')}>
          <Input value={holder} disabled data-testid="p2p-method-holder" />
        </Form.Item>
        <Form.Item label={t(`p2p.methods.accountOf.${method}`)}>
          <Input
            value={account}
            maxLength={64}
            onChange={(event) => setAccount(event.target.value)}
            data-testid="p2p-method-account"
          />
        </Form.Item>
        {method === 'bank' ? (
          <Form.Item label={t('p2p.methods.bankName')}>
            <Input
              value={bankName}
              maxLength={64}
              onChange={(event) => setBankName(event.target.value)}
              data-testid="p2p-method-bank"
            />
          </Form.Item>
        ) : (
          <Form.Item label={t('p2p.methods.qr')}>
            {qr !== null && <PrivateImage image={qr} load={loadImage} alt={t('p2p.methods.qr')} />}
            <input
              type="file"
              accept="image/png,image/jpeg"
              onChange={(event) => {
                const file = event.target.files?.[0];
                if (file) uploadOrderImage(file).then(setQr, (failure: Error) => setError(failure.message));
              }}
            />
          </Form.Item>
        )}
      </Form>
      {error !== null && <Alert type="error" showIcon title={error} data-testid="p2p-method-error" />}
    </Modal>
  );
}
