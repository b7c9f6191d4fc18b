import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert, Button, Input, Modal, Progress } from 'antd';
import type { MinerItem } from '@fairex/shared';
import { buyMiner, useMinerBalance, useMinerList, type ProductTab } from '../../data/products.ts';
import { Figure, ProductLogo, RiskNote, Whitepaper, num, when } from './ProductParts.tsx';
import { useBoardQuotations } from '../../data/market.ts';
import { exceeds, minerCost, minerOutlookText } from './product-math.ts';
import { useBuyDialog } from './buy-dialog.ts';
import { ProductListPage } from './ProductListPage.tsx';

// Cloud mining, /miner (spec 02 section 2.7): tabs -1 the miners on sale, 1 the user's running rents, 2 the
// ended ones (both ask a visitor to log in). A miner shows its hashrate, price, fee, its daily amount rule
// (fixed, or recorded by the operator each day within the disclosed range), days and end; a rent links to its
// earnings and extract screens. The buy dialog shows rent, fee and payment exactly. Before renting, each miner
// and the buy dialog show what the rent returns over its term if today's daily amount holds and the coin keeps
// today's mark price: the output, its value, the cost, the net result and the break-even price.

export default function MinerPage() {
  return (
    <ProductListPage<MinerItem>
      kind="miner"
      gated={[1, 2]}
      useList={useMinerList}
      card={(item, tab, onBuy) => <MinerCard item={item} tab={tab} onBuy={onBuy} />}
      buyDialog={(item, onClose) => <MinerBuyDialog item={item} onClose={onClose} />}
    />
  );
}

/** The daily amount rule in words: fixed, or recorded within the range. */
export function useRateRule(item: Pick<MinerItem, 'rate_kind' | 'miner_earnings_range' | 'currency_name'>) {
  const { t } = useTranslation();
  return item.rate_kind === 'fixed'
    ? t('products.miner.rateFixed')
    : t('products.miner.rateRecorded', { range: item.miner_earnings_range, currency: item.currency_name });
}

function MinerCard({ item, tab, onBuy }: { item: MinerItem; tab: ProductTab; onBuy: () => void }) {
  const { t } = useTranslation();
  const rule = useRateRule(item);
  const rent = tab !== -1;
  const id = rent ? `miner-rent-${item.id}` : `miner-${item.id}`;
  const open = item.status === 'open' && item.end_time > Date.now();
  return (
    <article className="fx-products-card" data-testid={id} data-product-id={item.product_id}>
      <header className="fx-products-card-head">
        <ProductLogo src={item.currency_logo} code={item.currency_name} />
        <div className="fx-products-card-name">
          <strong data-testid={`${id}-currency`}>{item.currency_name}</strong>
          <Whitepaper href={item.miner_white} />
        </div>
        <span className="fx-products-status-text" data-testid={`${id}-status`}>
          {item.miner_status_lang}
        </span>
      </header>
      {item.miner_image.trim() !== '' ? (
        <img className="fx-products-image" src={item.miner_image} alt="" loading="lazy" />
      ) : null}
      <div className="fx-products-progress">
        <Progress
          percent={Number(item.end_load)}
          showInfo={false}
          aria-label={rent ? t('products.miner.daysProgress') : t('products.miner.soldProgress')}
        />
        <span data-testid={`${id}-load`}>{num(item.end_load)}%</span>
      </div>
      <div className="fx-products-figures">
        <Figure label={t('products.miner.hashrate')} testId={`${id}-hashrate`} strong>
          {item.miner_hashrate}
        </Figure>
        <Figure
          label={t('products.miner.price', { currency: item.pay_currency_name })}
          testId={`${id}-price`}
        >
          {num(item.miner_price)}
        </Figure>
        <Figure label={t('products.miner.fee')} testId={`${id}-fee`}>
          {num(item.miner_fee)}%
        </Figure>
        <Figure label={t('products.miner.daily', { currency: item.currency_name })} testId={`${id}-earnings`}>
          {num(item.miner_earnings)}
        </Figure>
        <Figure label={t('products.miner.range', { currency: item.currency_name })} testId={`${id}-range`}>
          {item.miner_earnings_range}
        </Figure>
        <Figure label={t('products.miner.days')} testId={`${id}-days`}>
          {item.miner_day}
        </Figure>
        <Figure
          label={rent ? t('products.miner.units') : t('products.miner.totalUnits')}
          testId={`${id}-number`}
        >
          {num(item.miner_number)}
        </Figure>
        {rent ? null : (
          <Figure label={t('products.miner.remainingUnits')} testId={`${id}-remaining`}>
            {num(item.remaining)}
          </Figure>
        )}
        <Figure label={t('products.endTime')} testId={`${id}-end`}>
          {when(item.end_time)}
        </Figure>
        {rent ? (
          <>
            <Figure
              label={t('products.miner.extractable', { currency: item.currency_name })}
              testId={`${id}-earnings-total`}
            >
              {num(item.earnings_total)}
            </Figure>
            <Figure
              label={t('products.miner.extracted', { currency: item.currency_name })}
              testId={`${id}-earnings-extract`}
            >
              {num(item.earnings_extract)}
            </Figure>
          </>
        ) : null}
      </div>
      <p className="fx-products-rate-rule" data-testid={`${id}-rule`}>
        {rule}
      </p>
      {rent ? null : <MinerOutlookFigures item={item} units={1n} testId={`${id}-outlook`} />}
      <RiskNote
        kind="miner"
        house={item.house}
        ruleText={item.rule_text}
        riskText={item.risk_text}
        testId={`${id}-risk`}
      />
      <div className="fx-products-card-actions">
        {rent ? (
          <>
            <Link to={`/miner_earnings?id=${item.id}`} data-testid={`${id}-earnings-link`}>
              <Button tabIndex={-1}>{t('products.miner.earningsLink')}</Button>
            </Link>
            <Link to={`/miner_extract?id=${item.id}`} data-testid={`${id}-extract-link`}>
              <Button type="primary" tabIndex={-1}>
                {t('products.miner.extractLink')}
              </Button>
            </Link>
          </>
        ) : (
          <Button type="primary" disabled={!open} onClick={onBuy} data-testid={`${id}-buy`}>
            {open ? t('products.miner.buy') : t('products.notSelling')}
          </Button>
        )}
      </div>
    </article>
  );
}

function MinerBuyDialog({ item, onClose }: { item: MinerItem; onClose: () => void }) {
  const { t } = useTranslation();
  const rule = useRateRule(item);
  const balance = useMinerBalance(null);
  const { number, setNumber, quantity, problem, sending, submit } = useBuyDialog({
    send: (rented) => buyMiner(item.id, rented.toString()),
    invalid: t('products.minimumNumber'),
    onClose,
  });
  const cost = quantity === null ? null : minerCost(item.miner_price, quantity, item.miner_fee);
  const available =
    balance.data?.balance.currency_name === item.pay_currency_name
      ? balance.data.balance.miner_balance
      : null;
  const pay = item.pay_currency_name;

  return (
    <Modal
      open
      title={t('products.miner.buyTitle', { currency: item.currency_name, hashrate: item.miner_hashrate })}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t('products.confirm')}
      cancelText={t('products.cancel')}
      confirmLoading={sending}
      okButtonProps={{ 'data-testid': 'miner-buy-confirm' } as Record<string, string>}
      destroyOnHidden
    >
      <div className="fx-products-dialog" data-testid="miner-buy-dialog">
        <div className="fx-products-dialog-row">
          <span>{t('products.miner.price', { currency: pay })}</span>
          <span>{num(item.miner_price)}</span>
        </div>
        <div className="fx-products-dialog-row">
          <span>{t('products.miner.fee')}</span>
          <span>{num(item.miner_fee)}%</span>
        </div>
        <div className="fx-products-dialog-row">
          <span>{t('products.miner.days')}</span>
          <span>{item.miner_day}</span>
        </div>
        <p className="fx-products-rate-rule">{rule}</p>
        <label className="fx-products-dialog-label" htmlFor="miner-buy-number">
          {t('products.miner.quantity')}
        </label>
        <Input
          id="miner-buy-number"
          value={number}
          inputMode="numeric"
          onChange={(event) => setNumber(event.target.value)}
          data-testid="miner-buy-number"
        />
        <div className="fx-products-dialog-row">
          <span>{t('products.available', { wallet: t('wallet.names.miner') })}</span>
          <span data-testid="miner-buy-available">
            {available === null ? '--' : `${num(available)} ${pay}`}
          </span>
        </div>
        <div className="fx-products-dialog-row">
          <span>{t('products.miner.rent')}</span>
          <span data-testid="miner-buy-rent">{cost === null ? '--' : `${num(cost.rent)} ${pay}`}</span>
        </div>
        <div className="fx-products-dialog-row">
          <span>{t('products.miner.feeAmount')}</span>
          <span data-testid="miner-buy-fee">{cost === null ? '--' : `${num(cost.fee)} ${pay}`}</span>
        </div>
        <div className="fx-products-dialog-row is-strong">
          <span>{t('products.miner.paid')}</span>
          <span data-testid="miner-buy-paid">{cost === null ? '--' : `${num(cost.paid)} ${pay}`}</span>
        </div>
        {quantity === null ? null : (
          <MinerOutlookFigures item={item} units={quantity} testId="miner-buy-outlook" />
        )}
        {cost !== null && available !== null && exceeds(cost.paid, available) ? (
          <Alert type="warning" showIcon message={t('products.insufficient')} />
        ) : null}
        {problem ? <Alert type="error" showIcon message={problem} data-testid="miner-buy-problem" /> : null}
        <p className="fx-products-dialog-note">{t('products.miner.buyNote')}</p>
      </div>
    </Modal>
  );
}

/** The mark price of the earned coin in the pay currency, from the market board; null without a pair or mark. */
function useMarkOf(coin: string, pay: string): string | null {
  const board = useBoardQuotations();
  const row = board.data?.find(
    (quotation) => quotation.currency_name === coin && quotation.legal_name === pay,
  );
  const mark = row?.mark_price;
  return typeof mark === 'string' && mark !== '' ? mark : null;
}

/**
 * What `units` return over the term at today's mark: output, value, cost (rent + fee), net and break-even,
 * with the two assumptions said (the daily amount stays as recorded today; the price stays today's mark).
 */
function MinerOutlookFigures({ item, units, testId }: { item: MinerItem; units: bigint; testId: string }) {
  const { t } = useTranslation();
  const mark = useMarkOf(item.currency_name, item.pay_currency_name);
  const coin = item.currency_name;
  const pay = item.pay_currency_name;
  const outlook =
    mark === null
      ? null
      : minerOutlookText(
          {
            perUnit: item.miner_earnings,
            days: item.miner_day,
            price: item.miner_price,
            feePercent: item.miner_fee,
          },
          units,
          mark,
        );
  return (
    <section
      className="fx-products-outlook"
      data-testid={testId}
      aria-label={t('products.miner.outlookTitle')}
    >
      <h4 className="fx-products-outlook-title">
        {t('products.miner.outlookTitle')}
        {' · '}
        {t('products.miner.outlookUnits', { count: Number(units) })}
      </h4>
      {outlook === null ? (
        <p className="fx-products-outlook-note" data-testid={`${testId}-none`}>
          {t('products.miner.outlookNoPrice', { symbol: `${coin}/${pay}` })}
        </p>
      ) : (
        <>
          <div className="fx-products-figures">
            <Figure label={t('products.miner.outlookOutput', { currency: coin })} testId={`${testId}-output`}>
              {num(outlook.output)}
            </Figure>
            <Figure
              label={t('products.miner.outlookMark', { symbol: `${coin}/${pay}` })}
              testId={`${testId}-mark`}
            >
              {num(mark ?? '')}
            </Figure>
            <Figure label={t('products.miner.outlookValue', { currency: pay })} testId={`${testId}-value`}>
              {num(outlook.value)}
            </Figure>
            <Figure label={t('products.miner.outlookCost', { currency: pay })} testId={`${testId}-cost`}>
              {num(outlook.cost)}
            </Figure>
            <Figure label={t('products.miner.outlookNet', { currency: pay })} testId={`${testId}-net`} strong>
              <span className={outlook.loss ? 'fx-products-loss' : 'fx-products-gain'}>
                {outlook.loss ? '' : '+'}
                {num(outlook.net)}
              </span>
            </Figure>
            <Figure
              label={t('products.miner.outlookBreakEven', { currency: pay })}
              testId={`${testId}-break-even`}
            >
              {outlook.breakEven === null ? '--' : num(outlook.breakEven)}
            </Figure>
          </div>
          <p className="fx-products-outlook-note" data-testid={`${testId}-assumptions`}>
            {t('products.miner.outlookAssumptions', {
              days: item.miner_day,
              daily: `${num(item.miner_earnings)} ${coin}`,
            })}
          </p>
        </>
      )}
    </section>
  );
}
