import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Alert, Input, Pagination, Segmented, Select } from 'antd';
import {
  FIATS,
  PAYMENT_METHODS,
  useAdBook,
  useCounters,
  useOrderPush,
  useP2pConfig,
  type P2pAd,
  type P2pFiat,
  type P2pMethod,
} from '../../data/p2p.ts';
import { useSession } from '../../data/session.ts';
import { openLoginDialog } from '../auth/auth-dialogs.ts';
import { EmptyNote, Spinner } from '../../components/trading/PanelStates.tsx';
import { AdCard, referenceTimeOf } from './parts.tsx';
import { CountersBar, P2pTabs } from './shell.tsx';
import { TakeAdDialog } from './TakeAdDialog.tsx';
import { defaultAsset, isPositiveAt } from './p2p-math.ts';
import './p2p.css';

// The ad book (/fiatradCenter): buy or sell, asset, fiat, payment method and an amount the ad must admit;
// each ad with its merchant's statistics from recorded orders. Taking one opens the order room. The
// filters live in the address, so a filtered book is a link.

function isFiat(value: string | null): value is P2pFiat {
  return (FIATS as readonly string[]).includes(value ?? '');
}

function isMethod(value: string | null): value is P2pMethod {
  return (PAYMENT_METHODS as readonly string[]).includes(value ?? '');
}

export default function FiatCenterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const config = useP2pConfig();
  const loggedIn = useSession((state) => state.token !== null);
  const myId = Number(useSession((state) => state.userId) ?? 0);
  const counters = useCounters();
  useOrderPush();

  const side = params.get('side') === 'sell' ? 'sell' : 'buy';
  const assets = config.data?.assets ?? [];
  const currencyId = Number(params.get('asset')) || defaultAsset(assets)?.currency_id || 0;
  const asset = assets.find((item) => item.currency_id === currencyId);
  const fiatParam = params.get('fiat');
  const fiat: P2pFiat = isFiat(fiatParam) ? fiatParam : (config.data?.fiats[0] ?? 'CNY');
  const methodParam = params.get('method');
  const method = isMethod(methodParam) ? methodParam : undefined;
  const amountParam = params.get('amount') ?? '';
  const amount = isPositiveAt(amountParam, 2) ? amountParam : undefined;
  const page = Math.max(1, Number(params.get('page')) || 1);
  const [amountText, setAmountText] = useState(amountParam);
  const [taking, setTaking] = useState<P2pAd | null>(null);

  const book = useAdBook(currencyId > 0 ? { side, currencyId, fiat, method, amount, page } : null);

  const update = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value === null || value === '') next.delete(key);
      else next.set(key, value);
    }
    if (!('page' in changes)) next.delete('page');
    setParams(next, { replace: true });
  };

  const restricted = counters.data?.restricted_until ?? null;

  return (
    <div className="fx-p2p" data-testid="p2p-center">
      <P2pTabs active="book" />
      <section className="fx-p2p-toolbar" aria-label={t('p2p.filters')}>
        <Segmented
          className="fx-p2p-side"
          value={side}
          onChange={(value) => update({ side: value as string })}
          options={[
            { value: 'buy', label: <span data-testid="p2p-side-buy">{t('p2p.buy')}</span> },
            { value: 'sell', label: <span data-testid="p2p-side-sell">{t('p2p.sell')}</span> },
          ]}
        />
        <Select
          className="fx-p2p-select"
          value={currencyId || undefined}
          aria-label={t('p2p.asset')}
          onChange={(value: number) => update({ asset: String(value) })}
          options={assets.map((item) => ({ value: item.currency_id, label: item.name }))}
          data-testid="p2p-asset"
        />
        <Select
          className="fx-p2p-select"
          value={fiat}
          aria-label={t('p2p.fiat')}
          onChange={(value) => update({ fiat: value })}
          options={(config.data?.fiats ?? [...FIATS]).map((value) => ({ value, label: value }))}
          data-testid="p2p-fiat"
        />
        <Select
          className="fx-p2p-select"
          value={method ?? 'all'}
          aria-label={t('p2p.paymentMethod')}
          onChange={(value) => update({ method: value === 'all' ? null : value })}
          options={[
            { value: 'all', label: t('p2p.allMethods') },
            ...(config.data?.methods ?? [...PAYMENT_METHODS]).map((value) => ({
              value,
              label: t(`p2p.method.${value}`),
            })),
          ]}
          data-testid="p2p-method-filter"
        />
        <Input.Search
          className="fx-p2p-amount"
          value={amountText}
          inputMode="decimal"
          placeholder={t('p2p.amountFilter', { fiat })}
          allowClear
          onChange={(event) => setAmountText(event.target.value.trim())}
          onSearch={(value) => update({ amount: isPositiveAt(value, 2) ? value : null })}
          data-testid="p2p-amount-filter"
        />
      </section>

      {loggedIn && counters.data && <CountersBar counters={counters.data} />}
      {restricted !== null && (
        <Alert type="error" showIcon title={t('p2p.counters.restricted')} data-testid="p2p-restricted" />
      )}

      <section className="fx-p2p-book" data-testid="p2p-book" aria-busy={book.isFetching}>
        {config.isPending || book.isPending ? (
          <div className="fx-p2p-center">
            <Spinner label={t('p2p.loading')} />
          </div>
        ) : book.isError ? (
          <Alert type="error" showIcon title={book.error.message} />
        ) : (book.data?.data.length ?? 0) === 0 ? (
          <EmptyNote>{t('p2p.noAds')}</EmptyNote>
        ) : (
          <>
            <div className="fx-p2p-book-head" aria-hidden="true">
              <span>{t('p2p.merchant')}</span>
              <span>{t('p2p.price')}</span>
              <span>{t('p2p.availableAndLimits')}</span>
              <span>{t('p2p.paymentMethod')}</span>
              <span />
            </div>
            {book.data?.data.map((ad) => (
              <AdCard
                key={ad.id}
                ad={ad}
                takerSide={side}
                own={ad.merchant.user_id === myId}
                referenceTime={referenceTimeOf(config.data, ad)}
                onTake={(chosen) => {
                  if (!loggedIn) {
                    openLoginDialog({ redirect: `/fiatradCenter?${params.toString()}` });
                    return;
                  }
                  setTaking(chosen);
                }}
              />
            ))}
            <Pagination
              size="small"
              align="center"
              current={page}
              pageSize={book.data?.per_page ?? 20}
              total={book.data?.total ?? 0}
              onChange={(next) => update({ page: String(next) })}
              showSizeChanger={false}
              hideOnSinglePage
            />
          </>
        )}
      </section>
      <p className="fx-p2p-note">
        {t('p2p.escrowExplained')} <Link to="/legalTrade">{t('p2p.tabs.orders')}</Link>
      </p>

      <TakeAdDialog
        ad={taking}
        takerSide={side}
        coinScale={asset?.scale ?? 8}
        onClose={() => setTaking(null)}
        onTaken={(order) => {
          setTaking(null);
          void navigate(`/legalTrade?order=${order.id}`);
        }}
      />
    </div>
  );
}
