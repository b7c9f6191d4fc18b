import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { P2P_APPEAL_REASONS } from '@fairex/shared/api/p2p.ts';
import {
  Alert,
  Button,
  Descriptions,
  Form,
  Input,
  Modal,
  Popconfirm,
  Select,
  Tag,
  type ButtonProps,
} from 'antd';
import { CopyOutlined } from '@ant-design/icons';
import { FeedbackBox } from './FeedbackBox.tsx';
import {
  P2P_KEY,
  appealOrder,
  cancelOrder,
  fetchOrderImage,
  markPaid,
  rejectDeal,
  releaseOrder,
  sendMessage,
  sendReleaseCode,
  uploadOrderImage,
  useAd,
  useMessages,
  type AppealReason,
  type P2pOrder,
  type P2pPaymentMethod,
} from '../../data/p2p.ts';
import { useUserInfo } from '../../data/auth.ts';
import { useMessage } from '../../app/message.tsx';
import { dateTimeOf } from '../../components/trading/display.ts';
import { ChatPanel, PrivateImage, MAX_CHAT_IMAGE_BYTES } from './ChatPanel.tsx';
import { Countdown, MethodTag, StatusStepper, useNow, useSend } from './parts.tsx';
import { countdownText, orderActions } from './p2p-math.ts';

// The order room: where the order stands (stepper, countdown to the payment window's end), the amounts,
// the seller's payment details (the two parties only; the server sends them only to them), the actions
// the viewer may take now (pay, cancel, release with the second factor, appeal after the disclosed wait)
// and the chat. Every change arrives live by `p2p_order` (useOrderPush in the page).

export interface OrderRoomProps {
  order: P2pOrder;
  myId: number;
  /** Minutes from "paid" until an appeal may be filed (GET /p2p/config). */
  appealWaitMinutes: number | null;
}

export function OrderRoom({ order, myId, appealWaitMinutes }: OrderRoomProps) {
  const { t } = useTranslation();
  const message = useMessage();
  const queryClient = useQueryClient();
  const now = useNow(1000);
  const actions = orderActions(order, now);
  const messages = useMessages(order.id);
  const [releasing, setReleasing] = useState(false);
  const [appealing, setAppealing] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  // Which of the seller's methods the buyer paid with, asked when it offers several (kept for the records).
  const [paidWith, setPaidWith] = useState<number | null>(null);
  const counterparty = order.my_side === 'buy' ? order.seller : order.buyer;
  const open = order.status === 'unpaid' || order.status === 'paid' || order.status === 'appealed';
  // An acceptor deal may be refused by the acceptor (the ad's owner) before it is paid.
  const ad = useAd(order.acceptor && order.status === 'unpaid' ? order.ad_id : null);
  const canReject = order.acceptor && order.status === 'unpaid' && ad.data?.merchant.user_id === myId;

  const refresh = () => queryClient.invalidateQueries({ queryKey: P2P_KEY });
  const run = async (key: string, action: () => Promise<unknown>, done: string) => {
    setBusy(key);
    try {
      await action();
      void message.success(done);
      await refresh();
    } catch (error) {
      void message.error((error as Error).message);
    } finally {
      setBusy(null);
    }
  };
  const loadImage = useCallback((image: string) => fetchOrderImage(image), []);

  return (
    <div className="fx-p2p-room" data-testid="p2p-order-room" data-status={order.status}>
      <section className="fx-p2p-room-main">
        <header className="fx-p2p-room-head">
          <div>
            <h1 className="fx-p2p-room-title">
              {order.my_side === 'buy'
                ? t('p2p.room.buying', { asset: order.currency_name })
                : t('p2p.room.selling', { asset: order.currency_name })}
              <Tag className="fx-p2p-status-tag" data-testid="p2p-order-status">
                {t(`p2p.status.${order.status}`)}
              </Tag>
            </h1>
            <div className="fx-p2p-room-sub">
              {t('p2p.room.orderNo', { id: order.id })} · {dateTimeOf(order.created_time)} ·{' '}
              {t('p2p.room.counterparty', { name: counterparty.nickname })}
            </div>
          </div>
          {actions.deadline !== null && (
            <div className="fx-p2p-room-deadline">
              <span>{order.my_side === 'buy' ? t('p2p.room.payWithin') : t('p2p.room.buyerPaysWithin')}</span>
              <Countdown deadline={actions.deadline} />
            </div>
          )}
        </header>

        <StatusStepper status={order.status} mySide={order.my_side} />

        {order.end !== null && (
          <Alert
            type={order.status === 'completed' ? 'success' : 'warning'}
            showIcon
            data-testid="p2p-order-end"
            title={t(`p2p.end.${order.end}`)}
          />
        )}

        <Descriptions
          size="small"
          column={{ xs: 1, sm: 3 }}
          className="fx-p2p-room-figures"
          items={[
            {
              key: 'fiat',
              label: t('p2p.room.fiatAmount'),
              children: (
                <strong className="fx-p2p-big" data-testid="p2p-order-fiat">
                  {order.fiat_amount} {order.fiat}
                </strong>
              ),
            },
            { key: 'price', label: t('p2p.price'), children: `${order.price} ${order.fiat}` },
            {
              key: 'amount',
              label: t('p2p.room.amount'),
              children: (
                <span data-testid="p2p-order-amount">
                  {order.amount} {order.currency_name}
                </span>
              ),
            },
            { key: 'fee', label: t('p2p.room.fee'), children: `${order.fee} ${order.currency_name}` },
          ]}
        />

        {open && order.payment_methods.length > 0 && (
          <section className="fx-p2p-pay-details" data-testid="p2p-pay-details">
            <h2>{order.my_side === 'buy' ? t('p2p.room.payTo') : t('p2p.room.yourDetails')}</h2>
            {order.payment_methods.map((method) => (
              <PaymentDetails key={method.id} method={method} />
            ))}
            {order.my_side === 'buy' && order.status === 'unpaid' && order.payment_methods.length > 1 && (
              <label className="fx-p2p-paid-with">
                <span>{t('p2p.room.paidWith')}</span>
                <Select
                  value={paidWith ?? undefined}
                  placeholder={t('p2p.room.paidWithPick')}
                  onChange={(value: number) => setPaidWith(value)}
                  options={order.payment_methods.map((method) => ({
                    value: method.id,
                    label: <MethodTag method={method.method} />,
                  }))}
                  data-testid="p2p-paid-with"
                />
              </label>
            )}
            {order.my_side === 'buy' && order.status === 'unpaid' && (
              <Alert type="info" showIcon title={t('p2p.room.payHint')} />
            )}
          </section>
        )}

        {order.terms !== '' && (
          <section className="fx-p2p-terms">
            <h2>{t('p2p.terms')}</h2>
            <p>{order.terms}</p>
          </section>
        )}

        {(order.status === 'paid' || order.status === 'unpaid') && order.my_side === 'sell' && (
          <Alert type="warning" showIcon title={t('p2p.room.checkBeforeRelease')} />
        )}
        {order.status === 'appealed' && <Alert type="error" showIcon title={t('p2p.room.inAppeal')} />}

        <div className="fx-p2p-room-actions">
          {actions.pay && (
            <Popconfirm
              title={t('p2p.room.confirmPaid', { amount: order.fiat_amount, fiat: order.fiat })}
              onConfirm={() =>
                run('paid', () => markPaid(order.id, paidWith ?? undefined), t('p2p.room.paidDone'))
              }
              okText={t('p2p.room.paid')}
              okButtonProps={{ 'data-testid': 'p2p-paid-confirm' } as ButtonProps}
            >
              <Button type="primary" size="large" loading={busy === 'paid'} data-testid="p2p-paid">
                {t('p2p.room.paid')}
              </Button>
            </Popconfirm>
          )}
          {actions.release && (
            <Button
              type={order.status === 'unpaid' ? 'default' : 'primary'}
              size="large"
              onClick={() => setReleasing(true)}
              data-testid="p2p-release"
            >
              {t('p2p.room.release')}
            </Button>
          )}
          {actions.cancel && (
            <Popconfirm
              title={t('p2p.room.confirmCancel')}
              onConfirm={() => run('cancel', () => cancelOrder(order.id), t('p2p.room.cancelDone'))}
              okButtonProps={{ 'data-testid': 'p2p-cancel-confirm' } as ButtonProps}
            >
              <Button size="large" loading={busy === 'cancel'} data-testid="p2p-cancel">
                {t('p2p.room.cancel')}
              </Button>
            </Popconfirm>
          )}
          {canReject && (
            <Popconfirm
              title={t('p2p.room.confirmReject')}
              onConfirm={() => run('reject', () => rejectDeal(order.id), t('p2p.room.rejectDone'))}
              okButtonProps={{ 'data-testid': 'p2p-reject-confirm' } as ButtonProps}
            >
              <Button size="large" danger loading={busy === 'reject'} data-testid="p2p-reject">
                {t('p2p.room.reject')}
              </Button>
            </Popconfirm>
          )}
          {actions.appeal && (
            <Button danger size="large" onClick={() => setAppealing(true)} data-testid="p2p-appeal">
              {t('p2p.room.appeal')}
            </Button>
          )}
          {actions.appealInMs !== null && (
            <span className="fx-p2p-appeal-wait" data-testid="p2p-appeal-wait">
              {t('p2p.room.appealIn', { time: countdownText(actions.appealInMs) })}
            </span>
          )}
        </div>
        {appealWaitMinutes !== null && open && (
          <p className="fx-p2p-note">{t('p2p.room.appealRule', { minutes: appealWaitMinutes })}</p>
        )}
        <FeedbackBox order={order} counterparty={counterparty.nickname} />
      </section>

      <ChatPanel
        messages={messages.data ?? []}
        myId={myId}
        names={{ [order.buyer.user_id]: order.buyer.nickname, [order.seller.user_id]: order.seller.nickname }}
        closed={!open}
        loadImage={loadImage}
        onSend={async (input) => {
          await sendMessage({ id: order.id, ...input });
          await queryClient.invalidateQueries({ queryKey: [...P2P_KEY, 'messages', order.id] });
        }}
        onUpload={uploadOrderImage}
        onError={(text) => void message.error(text)}
      />

      <ReleaseDialog
        open={releasing}
        order={order}
        onClose={() => setReleasing(false)}
        onReleased={() => {
          setReleasing(false);
          void message.success(t('p2p.room.releaseDone'));
          void refresh();
        }}
      />
      <AppealDialog
        open={appealing}
        orderId={order.id}
        side={order.my_side}
        onClose={() => setAppealing(false)}
        onAppealed={() => {
          setAppealing(false);
          void message.success(t('p2p.room.appealDone'));
          void refresh();
        }}
      />
    </div>
  );
}

/** One of the seller's payment methods: what the buyer needs to pay (with copy buttons). */
export function PaymentDetails({ method }: { method: P2pPaymentMethod }) {
  const { t } = useTranslation();
  const message = useMessage();
  const copy = (text: string) =>
    navigator.clipboard.writeText(text).then(
      () => void message.success(t('p2p.copied')),
      () => void message.error(t('p2p.copyFailed')),
    );
  const loadImage = useCallback((image: string) => fetchOrderImage(image), []);
  return (
    <div className="fx-p2p-method-card" data-testid={`p2p-pay-method-${method.id}`}>
      <MethodTag method={method.method} />
      <dl>
        <dt>{t('p2p.methods.holder')}</dt>
        <dd data-testid="p2p-pay-holder">{method.holder_name}</dd>
        <dt>{t(`p2p.methods.accountOf.${method.method}`)}</dt>
        <dd>
          <span data-testid="p2p-pay-account">{method.account}</span>{' '}
          <Button
            type="link"
            size="small"
            icon={<CopyOutlined />}
            aria-label={t('p2p.copy')}
            onClick={() => void copy(method.account)}
          />
        </dd>
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
    </div>
  );
}

/** The release: the authenticator's code, or an e-mail code for accounts without one. */
function ReleaseDialog({
  open,
  order,
  onClose,
  onReleased,
}: {
  open: boolean;
  order: P2pOrder;
  onClose: () => void;
  onReleased: () => void;
}) {
  const { t } = useTranslation();
  const info = useUserInfo();
  const totp = info.data?.google_bind === 1;
  const [code, setCode] = useState('');
  const { busy, error, setError, send } = useSend();
  const [sending, setSending] = useState(false);
  const [sentAt, setSentAt] = useState<number | null>(null);
  const now = useNow(1000);
  const resendIn = sentAt === null ? 0 : Math.max(0, 60 - Math.floor((now - sentAt) / 1000));

  const submit = async () => {
    if (!/^\d{6}$/.test(code)) {
      setError(t('p2p.release.codeFormat'));
      return;
    }
    await send(async () => {
      await releaseOrder(order.id, totp ? { totp_code: code } : { code });
      setCode('');
      onReleased();
    });
  };

  return (
    <Modal
      open={open}
      onCancel={onClose}
      title={t('p2p.release.title')}
      okText={t('p2p.room.release')}
      onOk={() => void submit()}
      confirmLoading={busy}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'p2p-release-confirm' } as ButtonProps}
    >
      <Alert
        type="warning"
        showIcon
        title={t('p2p.release.warning', {
          fiat: order.fiat_amount,
          currency: order.fiat,
          amount: order.amount,
          asset: order.currency_name,
        })}
      />
      <Form layout="vertical" className="fx-p2p-release-form" onFinish={() => void submit()}>
        <Form.Item label={totp ? t('p2p.release.totp') : t('p2p.release.emailCode')}>
          <div className="fx-p2p-code-row">
            <Input
              value={code}
              inputMode="numeric"
              maxLength={6}
              autoComplete="one-time-code"
              onChange={(event) => setCode(event.target.value.replace(/\D/g, ''))}
              data-testid="p2p-release-code"
            />
            {!totp && (
              <Button
                loading={sending}
                disabled={resendIn > 0}
                onClick={() => {
                  setSending(true);
                  sendReleaseCode().then(
                    () => {
                      setSentAt(Date.now());
                      setSending(false);
                    },
                    (failure: Error) => {
                      setError(failure.message);
                      setSending(false);
                    },
                  );
                }}
                data-testid="p2p-release-send-code"
              >
                {resendIn > 0 ? t('p2p.release.resendIn', { seconds: resendIn }) : t('p2p.release.sendCode')}
              </Button>
            )}
          </div>
        </Form.Item>
      </Form>
      {error !== null && <Alert type="error" showIcon title={error} data-testid="p2p-release-error" />}
    </Modal>
  );
}

const MAX_EVIDENCE = 6;

/**
 * The appeal: a reason of the appellant's side (a buyer's "paid, not released", a seller's "payment not
 * received"), a description of at least ten characters and up to six images as evidence.
 */
function AppealDialog({
  open,
  orderId,
  side,
  onClose,
  onAppealed,
}: {
  open: boolean;
  orderId: number;
  side: 'buy' | 'sell';
  onClose: () => void;
  onAppealed: () => void;
}) {
  const { t } = useTranslation();
  const reasons: readonly AppealReason[] = P2P_APPEAL_REASONS[side];
  const [reason, setReason] = useState<AppealReason>(reasons[0] ?? 'other');
  const [description, setDescription] = useState('');
  const [evidence, setEvidence] = useState<string[]>([]);
  const { busy, error, setError, send } = useSend();
  const loadImage = useCallback((image: string) => fetchOrderImage(image), []);

  const upload = async (file: File | undefined) => {
    if (!file) return;
    if (!['image/jpeg', 'image/png'].includes(file.type)) return setError(t('p2p.chat.imageType'));
    if (file.size > MAX_CHAT_IMAGE_BYTES) return setError(t('p2p.chat.imageSize'));
    try {
      const address = await uploadOrderImage(file);
      setEvidence((list) => [...list, address].slice(0, MAX_EVIDENCE));
    } catch (failure) {
      setError((failure as Error).message);
    }
  };

  const submit = async () => {
    if (description.trim().length < 10) {
      setError(t('p2p.appeal.describe'));
      return;
    }
    await send(async () => {
      await appealOrder({ id: orderId, reason, description: description.trim(), evidence });
      onAppealed();
    });
  };

  return (
    <Modal
      open={open}
      onCancel={onClose}
      title={t('p2p.appeal.title')}
      okText={t('p2p.appeal.submit')}
      onOk={() => void submit()}
      confirmLoading={busy}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'p2p-appeal-submit' } as ButtonProps}
    >
      <p className="fx-p2p-note">{t('p2p.appeal.intro')}</p>
      <Form layout="vertical">
        <Form.Item label={t('p2p.appeal.reason')}>
          <Select
            value={reason}
            onChange={setReason}
            options={reasons.map((value) => ({ value, label: t(`p2p.appeal.reasons.${value}`) }))}
            data-testid="p2p-appeal-reason"
          />
        </Form.Item>
        <Form.Item label={t('p2p.appeal.description')}>
          <Input.TextArea
            rows={4}
            maxLength={1000}
            value={description}
            onChange={(event) => setDescription(event.target.value)}
            data-testid="p2p-appeal-description"
          />
        </Form.Item>
        <Form.Item label={t('p2p.appeal.evidence', { max: MAX_EVIDENCE })}>
          <div className="fx-p2p-evidence">
            {evidence.map((image) => (
              <PrivateImage key={image} image={image} load={loadImage} alt={t('p2p.chat.image')} />
            ))}
            {evidence.length < MAX_EVIDENCE && (
              <label className="fx-p2p-evidence-add">
                +
                <input
                  type="file"
                  accept="image/png,image/jpeg"
                  hidden
                  onChange={(event) => void upload(event.target.files?.[0])}
                  data-testid="p2p-appeal-file"
                />
              </label>
            )}
          </div>
        </Form.Item>
      </Form>
      {error !== null && <Alert type="error" showIcon title={error} />}
    </Modal>
  );
}
