import { useTranslation } from 'react-i18next';
import { Alert, Button, Input, Modal, Progress } from 'antd';
import type { IcoItem } from '@fairex/shared';
import { buyIco, useIcoBalance, useIcoList } from '../../data/products.ts';
import { Figure, ProductLogo, RiskNote, StatusTag, Whitepaper, num, when } from './ProductParts.tsx';
import { exceeds, minus, timesQuantity } from './product-math.ts';
import { useBuyDialog } from './buy-dialog.ts';
import { ProductListPage } from './ProductListPage.tsx';

// Token sales, /ico (spec 02 section 2.6): tabs -1 all, 1 mine (visitors are asked to log in), 2 ended. Each
// sale shows its price, total, sold and remaining (ledger sums, polled every 2 s), its progress, its end and the
// user's holding, with the rule and risk note; the buy dialog asks for whole tokens and shows the exact cost.
// A sale has no allocation or release schedule (docs/products.md): each card says the tokens bought are
// credited at once and are not locked.

export default function IcoPage() {
  return (
    <ProductListPage<IcoItem>
      kind="ico"
      gated={[1]}
      useList={useIcoList}
      card={(item, tab, onBuy) => <IcoCard item={item} canBuy={tab !== 2} onBuy={onBuy} />}
      buyDialog={(item, onClose) => <IcoBuyDialog item={item} onClose={onClose} />}
    />
  );
}

function IcoCard({ item, canBuy, onBuy }: { item: IcoItem; canBuy: boolean; onBuy: () => void }) {
  const { t } = useTranslation();
  const id = `ico-${item.id}`;
  const open = item.status === 'open' && item.end_time > Date.now();
  return (
    <article className="fx-products-card" data-testid={id} data-product-id={item.id}>
      <header className="fx-products-card-head">
        <ProductLogo src={item.ico_logo} code={item.ico_symbol} />
        <div className="fx-products-card-name">
          <strong data-testid={`${id}-symbol`}>{item.ico_symbol}</strong>
          <Whitepaper href={item.ico_white} />
        </div>
        <StatusTag status={item.status} testId={`${id}-status`} />
      </header>
      <div className="fx-products-progress">
        <Progress percent={Number(item.ico_load)} showInfo={false} aria-label={t('products.ico.progress')} />
        <span data-testid={`${id}-load`}>{num(item.ico_load)}%</span>
      </div>
      <div className="fx-products-figures">
        <Figure label={t('products.ico.price')} testId={`${id}-price`} strong>
          {num(item.ico_price)}
        </Figure>
        <Figure label={t('products.ico.payCurrency')} testId={`${id}-currency`}>
          {item.ico_currency}
        </Figure>
        <Figure label={t('products.ico.total')} testId={`${id}-total`}>
          {num(item.ico_number)}
        </Figure>
        <Figure label={t('products.ico.sold')} testId={`${id}-sold`}>
          {num(item.ico_has)}
        </Figure>
        <Figure label={t('products.ico.remaining')} testId={`${id}-remaining`}>
          {num(item.remaining)}
        </Figure>
        <Figure label={t('products.ico.cap')} testId={`${id}-cap`}>
          {item.per_user_cap === null ? t('products.noCap') : num(item.per_user_cap)}
        </Figure>
        <Figure label={t('products.startTime')} testId={`${id}-start`}>
          {when(item.start_time)}
        </Figure>
        <Figure label={t('products.endTime')} testId={`${id}-end`}>
          {when(item.end_time)}
        </Figure>
        <Figure label={t('products.ico.daysLeft')} testId={`${id}-end-day`}>
          {item.end_day}
        </Figure>
        <Figure label={t('products.ico.holding')} testId={`${id}-hold`}>
          {num(item.hold_number)}
        </Figure>
        <Figure label={t('products.ico.paid')} testId={`${id}-hold-amount`}>
          {num(item.hold_amount)}
        </Figure>
        <Figure label={t('products.ico.worth')} testId={`${id}-hold-new`}>
          {num(item.hold_new_amount)}
        </Figure>
      </div>
      <p className="fx-products-release" data-testid={`${id}-release`}>
        <strong>{t('products.ico.releaseTitle')}</strong>{' '}
        {t('products.ico.releaseNote', { symbol: item.ico_symbol })}
      </p>
      <RiskNote
        kind="ico"
        house={item.house}
        ruleText={item.rule_text}
        riskText={item.risk_text}
        testId={`${id}-risk`}
      />
      {canBuy ? (
        <div className="fx-products-card-actions">
          <Button type="primary" disabled={!open} onClick={onBuy} data-testid={`${id}-buy`}>
            {open ? t('products.ico.buy') : t('products.notSelling')}
          </Button>
        </div>
      ) : null}
    </article>
  );
}

function IcoBuyDialog({ item, onClose }: { item: IcoItem; onClose: () => void }) {
  const { t } = useTranslation();
  const balance = useIcoBalance(item.pay_currency_id);
  const { number, setNumber, quantity, problem, sending, submit } = useBuyDialog({
    send: (bought) => buyIco(item.id, bought.toString()),
    invalid: t('products.minimumNumber'),
    onClose,
  });
  const cost = quantity === null ? null : timesQuantity(item.ico_price, quantity);
  const available = balance.data?.balance.ico_balance ?? null;
  const capLeft = item.per_user_cap === null ? null : minus(item.per_user_cap, item.hold_number);

  return (
    <Modal
      open
      title={t('products.ico.buyTitle', { symbol: item.ico_symbol })}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t('products.confirm')}
      cancelText={t('products.cancel')}
      confirmLoading={sending}
      okButtonProps={{ 'data-testid': 'ico-buy-confirm' } as Record<string, string>}
      destroyOnHidden
    >
      <div className="fx-products-dialog" data-testid="ico-buy-dialog">
        <div className="fx-products-dialog-row">
          <span>{t('products.ico.price')}</span>
          <span>
            {num(item.ico_price)} {item.ico_currency}
          </span>
        </div>
        <div className="fx-products-dialog-row">
          <span>{t('products.ico.remaining')}</span>
          <span>
            {num(item.remaining)} {item.ico_symbol}
          </span>
        </div>
        {capLeft !== null ? (
          <div className="fx-products-dialog-row">
            <span>{t('products.ico.capLeft')}</span>
            <span>
              {num(capLeft)} {item.ico_symbol}
            </span>
          </div>
        ) : null}
        <label className="fx-products-dialog-label" htmlFor="ico-buy-number">
          {t('products.ico.quantity')}
        </label>
        <Input
          id="ico-buy-number"
          value={number}
          inputMode="numeric"
          onChange={(event) => setNumber(event.target.value)}
          suffix={item.ico_symbol}
          data-testid="ico-buy-number"
        />
        <div className="fx-products-dialog-row">
          <span>{t('products.available', { wallet: t('wallet.names.ico') })}</span>
          <span data-testid="ico-buy-available">
            {available === null ? '--' : `${num(available)} ${item.ico_currency}`}
          </span>
        </div>
        <div className="fx-products-dialog-row is-strong">
          <span>{t('products.ico.cost')}</span>
          <span data-testid="ico-buy-cost">{cost === null ? '--' : `${num(cost)} ${item.ico_currency}`}</span>
        </div>
        {cost !== null && available !== null && exceeds(cost, available) ? (
          <Alert type="warning" showIcon message={t('products.insufficient')} />
        ) : null}
        {problem ? <Alert type="error" showIcon message={problem} data-testid="ico-buy-problem" /> : null}
        <p className="fx-products-dialog-note">{t('products.ico.buyNote')}</p>
      </div>
    </Modal>
  );
}
