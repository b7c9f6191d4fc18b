import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, Input, Pagination, Popconfirm, Result, Tag } from 'antd';
import { CheckCircleFilled, CloseCircleFilled, PlusOutlined } from '@ant-design/icons';
import {
  P2P_KEY,
  applyMerchant,
  setAdStatus,
  useIsSeller,
  useMerchantStats,
  useMerchantStatus,
  useMyAds,
  useOrderPush,
  useP2pConfig,
  type P2pAd,
  type P2pMerchantStatus,
} from '../../data/p2p.ts';
import { useSession } from '../../data/session.ts';
import { useMessage } from '../../app/message.tsx';
import { RequireLogin } from '../auth/RequireLogin.tsx';
import { EmptyNote, Spinner } from '../../components/trading/PanelStates.tsx';
import { AdForm } from './AdForm.tsx';
import { OrdersList } from './OrdersList.tsx';
import { FloatingNote, MerchantLine, MethodTag, referenceTimeOf } from './parts.tsx';
import { P2pTabs } from './shell.tsx';
import './p2p.css';

// /myLegalShops (spec 01: the link shows only when is_seller is 1, kept live by the `seller` push): the
// merchant's statistics, ads (post, edit, pause, resume, close) and orders. Anyone else who opens the
// address sees the merchant application: the thresholds as they stand and the application's state.

export default function MyShopsPage() {
  return (
    <div className="fx-p2p" data-testid="p2p-shop-page">
      <P2pTabs active="shop" />
      <RequireLogin>
        <Shop />
      </RequireLogin>
    </div>
  );
}

function Shop() {
  const isSeller = useIsSeller();
  const status = useMerchantStatus();
  useOrderPush();
  if (status.isPending) return <Spinner label="" />;
  const seller = isSeller || status.data?.is_seller === 1;
  if (!seller) return <Application status={status.data ?? null} />;
  return <MerchantDesk />;
}

function MerchantDesk() {
  const { t } = useTranslation();
  const myId = Number(useSession((state) => state.userId) ?? 0);
  const stats = useMerchantStats(myId || null);
  const config = useP2pConfig();
  const message = useMessage();
  const queryClient = useQueryClient();
  const [adStatus, setStatus] = useState<'online' | 'paused' | 'closed' | undefined>(undefined);
  const [page, setPage] = useState(1);
  const ads = useMyAds(adStatus, page, true);
  const [editing, setEditing] = useState<P2pAd | 'new' | null>(null);

  const act = async (ad: P2pAd, action: 'pause' | 'resume' | 'close') => {
    try {
      await setAdStatus(ad.id, action);
      void message.success(t(`p2p.shop.${action}Done`));
      await queryClient.invalidateQueries({ queryKey: P2P_KEY });
    } catch (error) {
      void message.error((error as Error).message);
    }
  };

  return (
    <>
      <section className="fx-p2p-card fx-p2p-shop-stats" data-testid="p2p-shop-stats">
        <h2>{t('p2p.shop.stats')}</h2>
        {stats.data ? (
          <div className="fx-p2p-stat-grid">
            <Stat label={t('p2p.shop.completed')} value={String(stats.data.completed)} />
            <Stat label={t('p2p.shop.orders30d')} value={String(stats.data.orders_30d)} />
            <Stat
              label={t('p2p.shop.rate30d')}
              value={stats.data.completion_rate_30d === null ? '--' : `${stats.data.completion_rate_30d}%`}
            />
            <div className="fx-p2p-stat-wide">
              <MerchantLine stats={stats.data} />
            </div>
          </div>
        ) : (
          <Spinner label={t('p2p.loading')} />
        )}
      </section>

      <section className="fx-p2p-card" data-testid="p2p-shop-ads">
        <div className="fx-p2p-card-head">
          <h2>{t('p2p.shop.ads')}</h2>
          <Button
            type="primary"
            icon={<PlusOutlined />}
            disabled={!config.data}
            onClick={() => setEditing('new')}
            data-testid="p2p-new-ad"
          >
            {t('p2p.shop.newAd')}
          </Button>
        </div>
        <div className="fx-p2p-subtabs" role="tablist">
          {([undefined, 'online', 'paused', 'closed'] as const).map((key) => (
            <button
              key={key ?? 'all'}
              type="button"
              role="tab"
              aria-selected={key === adStatus}
              className={key === adStatus ? 'fx-p2p-subtab is-active' : 'fx-p2p-subtab'}
              onClick={() => {
                setStatus(key);
                setPage(1);
              }}
            >
              {t(`p2p.shop.adStatus.${key ?? 'all'}`)}
            </button>
          ))}
        </div>
        {ads.isPending ? (
          <Spinner label={t('p2p.loading')} />
        ) : ads.isError ? (
          <Alert type="error" showIcon title={ads.error.message} />
        ) : ads.data.data.length === 0 ? (
          <EmptyNote>{t('p2p.shop.noAds')}</EmptyNote>
        ) : (
          <>
            {ads.data.data.map((ad) => (
              <div key={ad.id} className="fx-p2p-my-ad" data-testid={`p2p-my-ad-${ad.id}`}>
                <div>
                  <Tag color={ad.side === 'sell' ? 'red' : 'green'}>
                    {ad.side === 'sell' ? t('p2p.adForm.iSell') : t('p2p.adForm.iBuy')}
                  </Tag>
                  <strong>
                    {ad.currency_name}/{ad.fiat}
                  </strong>{' '}
                  {ad.price} {ad.fiat}
                  <FloatingNote ad={ad} referenceTime={referenceTimeOf(config.data, ad)} />
                </div>
                <div className="fx-p2p-label">
                  {t('p2p.shop.adLine', {
                    available: ad.available,
                    total: ad.total,
                    asset: ad.currency_name,
                    min: ad.min_fiat,
                    max: ad.max_fiat,
                    fiat: ad.fiat,
                    minutes: ad.window_minutes,
                  })}
                </div>
                <div className="fx-p2p-my-ad-foot">
                  <span>
                    {ad.methods.map((method) => (
                      <MethodTag key={method} method={method} />
                    ))}
                    <Tag data-testid="p2p-my-ad-status">{t(`p2p.shop.adStatus.${ad.status}`)}</Tag>
                  </span>
                  {ad.status !== 'closed' && (
                    <span className="fx-p2p-my-ad-actions">
                      <Button size="small" onClick={() => setEditing(ad)}>
                        {t('p2p.shop.edit')}
                      </Button>
                      {ad.status === 'online' ? (
                        <Button size="small" onClick={() => void act(ad, 'pause')} data-testid="p2p-ad-pause">
                          {t('p2p.shop.pause')}
                        </Button>
                      ) : (
                        <Button
                          size="small"
                          onClick={() => void act(ad, 'resume')}
                          data-testid="p2p-ad-resume"
                        >
                          {t('p2p.shop.resume')}
                        </Button>
                      )}
                      <Popconfirm title={t('p2p.shop.closeConfirm')} onConfirm={() => void act(ad, 'close')}>
                        <Button size="small" danger data-testid="p2p-ad-close">
                          {t('p2p.shop.close')}
                        </Button>
                      </Popconfirm>
                    </span>
                  )}
                </div>
              </div>
            ))}
            <Pagination
              size="small"
              align="center"
              current={page}
              pageSize={ads.data.per_page}
              total={ads.data.total}
              onChange={setPage}
              showSizeChanger={false}
              hideOnSinglePage
            />
          </>
        )}
      </section>

      <section className="fx-p2p-card">
        <h2>{t('p2p.shop.orders')}</h2>
        <OrdersList testId="p2p-shop-orders" />
      </section>

      {editing !== null && config.data && (
        <AdForm
          config={config.data}
          ad={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void message.success(t('p2p.shop.saved'));
            void queryClient.invalidateQueries({ queryKey: P2P_KEY });
          }}
        />
      )}
    </>
  );
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div className="fx-p2p-stat">
      <div className="fx-p2p-label">{label}</div>
      <div className="fx-p2p-stat-value">{value}</div>
    </div>
  );
}

/** The merchant application: thresholds with what the user has, the form, and the application's state. */
function Application({ status }: { status: P2pMerchantStatus | null }) {
  const { t } = useTranslation();
  const message = useMessage();
  const queryClient = useQueryClient();
  const [nickname, setNickname] = useState('');
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const application = status?.application ?? null;

  const submit = async () => {
    setBusy(true);
    try {
      await applyMerchant({ nickname: nickname.trim(), note: note.trim() === '' ? undefined : note.trim() });
      void message.success(t('p2p.apply.sent'));
      await queryClient.invalidateQueries({ queryKey: [...P2P_KEY, 'merchant'] });
    } catch (error) {
      void message.error((error as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="fx-p2p-card fx-p2p-apply" data-testid="p2p-apply">
      <h2>{t('p2p.apply.title')}</h2>
      <p className="fx-p2p-note">{t('p2p.apply.intro')}</p>
      <ul className="fx-p2p-requirements">
        {(status?.requirements ?? []).map((item) => (
          <li key={item.key} className={item.met ? 'is-met' : ''} data-testid={`p2p-req-${item.key}`}>
            {item.met ? <CheckCircleFilled /> : <CloseCircleFilled />}
            <span>{t(`p2p.apply.req.${item.key}`, { needed: item.needed, have: item.have })}</span>
          </li>
        ))}
      </ul>
      {application?.status === 'pending' ? (
        <Result
          status="info"
          title={t('p2p.apply.pending')}
          subTitle={application.nickname}
          data-testid="p2p-apply-pending"
        />
      ) : (
        <>
          {application?.status === 'rejected' && (
            <Alert
              type="error"
              showIcon
              title={t('p2p.apply.rejected')}
              description={application.reason}
              data-testid="p2p-apply-rejected"
            />
          )}
          <Form layout="vertical" onFinish={() => void submit()} className="fx-p2p-apply-form">
            <Form.Item label={t('p2p.apply.nickname')} required>
              <Input
                value={nickname}
                minLength={2}
                maxLength={24}
                onChange={(event) => setNickname(event.target.value)}
                data-testid="p2p-apply-nickname"
              />
            </Form.Item>
            <Form.Item label={t('p2p.apply.note')}>
              <Input.TextArea
                rows={3}
                maxLength={500}
                value={note}
                onChange={(event) => setNote(event.target.value)}
              />
            </Form.Item>
            <Button
              type="primary"
              htmlType="submit"
              loading={busy}
              disabled={status?.can_apply !== true || nickname.trim().length < 2}
              data-testid="p2p-apply-submit"
            >
              {t('p2p.apply.submit')}
            </Button>
          </Form>
        </>
      )}
    </section>
  );
}
