import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Alert, Button, Progress, Skeleton } from 'antd';
import { useIepn } from '../../data/products.ts';
import { writeStored } from '../../data/storage.ts';
import { symbolForQuery } from '../spot/pair.ts';
import { Figure, ProductFrame, StatusTag, num, when } from './ProductParts.tsx';
import { shareText } from './product-math.ts';

// The IEPN page, /upstart (spec 02 section 2.6): a pie of issued versus remaining, start and end, price and the
// total plan, all from the sale's ledger sums (GET /api/iepn, polled every 2 s). The buy button stores the
// symbol IEPN/USDT and opens the spot trading page on that pair.

export default function UpstartPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const iepn = useIepn();
  const info = iepn.data;
  const issuedShare = info === undefined ? null : shareText(info.yfx, info.total);
  const remainingShare = info === undefined ? null : shareText(info.sy, info.total);

  const trade = () => {
    if (info?.market_symbol == null) return;
    writeStored('symbol', info.market_symbol);
    void navigate(`/dealCenter?symbol=${encodeURIComponent(symbolForQuery(info.market_symbol))}`);
  };

  return (
    <ProductFrame title={t('products.upstart.title')} lead={t('products.upstart.lead')} testId="upstart-page">
      {iepn.error ? <Alert type="error" showIcon message={iepn.error.message} /> : null}
      {info === undefined ? (
        iepn.error ? null : (
          <Skeleton active />
        )
      ) : (
        <section className="fx-products-card fx-products-upstart" data-testid="upstart-info">
          <div className="fx-products-pie">
            {/* antd's circle progress draws the two parts of the whole: issued (filled) and remaining. */}
            <Progress
              type="circle"
              size={180}
              percent={issuedShare === null ? 0 : Number(issuedShare)}
              format={() => (
                <span className="fx-products-pie-center">
                  <span data-testid="upstart-issued-share">{issuedShare ?? '--'}%</span>
                  <small>{t('products.upstart.issued')}</small>
                </span>
              )}
              aria-label={t('products.upstart.pieLabel')}
            />
            <ul className="fx-products-legend">
              <li>
                <span className="fx-products-swatch is-issued" />
                {t('products.upstart.issued')}: <strong data-testid="upstart-issued">{num(info.yfx)}</strong>{' '}
                {info.symbol} ({issuedShare ?? '--'}%)
              </li>
              <li>
                <span className="fx-products-swatch is-remaining" />
                {t('products.upstart.remaining')}:{' '}
                <strong data-testid="upstart-remaining">{num(info.sy)}</strong> {info.symbol} (
                <span data-testid="upstart-remaining-share">{remainingShare ?? '--'}</span>%)
              </li>
            </ul>
          </div>
          <div className="fx-products-figures">
            <Figure label={t('products.upstart.symbol')} testId="upstart-symbol" strong>
              {info.symbol}
            </Figure>
            <Figure label={t('products.upstart.total')} testId="upstart-total">
              {num(info.total)}
            </Figure>
            <Figure label={t('products.upstart.price')} testId="upstart-price">
              {num(info.price)} {info.pay_currency_name}
            </Figure>
            <Figure label={t('products.startTime')} testId="upstart-start">
              {when(info.start)}
            </Figure>
            <Figure label={t('products.endTime')} testId="upstart-end">
              {when(info.end)}
            </Figure>
            <Figure label={t('products.statusLabel')}>
              <StatusTag status={info.status} testId="upstart-status" />
            </Figure>
          </div>
          <p className="fx-products-dialog-note">{t('products.upstart.note')}</p>
          <div className="fx-products-card-actions">
            <Button onClick={() => void navigate('/ico')} data-testid="upstart-sale">
              {t('products.upstart.toSale')}
            </Button>
            <Button
              type="primary"
              disabled={info.market_symbol === null}
              onClick={trade}
              data-testid="upstart-buy"
            >
              {info.market_symbol === null
                ? t('products.upstart.notListed')
                : t('products.upstart.buy', { symbol: info.market_symbol })}
            </Button>
          </div>
        </section>
      )}
    </ProductFrame>
  );
}
