import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Button } from 'antd';
import { CompactInput } from '../../components/trading/CompactInput.tsx';
import { SwapOutlined } from '@ant-design/icons';
import { ApiError } from '../../data/api.ts';
import { openLoginDialog, openRegisterDialog } from '../auth/auth-dialogs.ts';
import { NO_VALUE, formatPrice, groupThousands } from '../../format/index.ts';
import { formatDown } from '../../components/trading/display.ts';
import {
  SLIDER_MARKS,
  SLIDER_STEP,
  cleanDecimalInput,
  isPositive,
  checkOrderAmount,
  orderTotal,
  sliderPercentOf,
  sliderQuantity,
} from '../../components/trading/order-math.ts';
import { placeOrder, type Pair, type PlacedOrder, type SpotMarketInfo } from '../../data/spot.ts';
import { fetchMarketEstimate, type MarketOrderEstimate, type SpotTimeInForce } from '../../data/orders.ts';
import { useMessage } from '../../app/message.tsx';
import { CompactSegmented } from '../../components/trading/CompactSegmented.tsx';
import { PercentSlider } from '../../components/trading/PercentSlider.tsx';

// The buy and sell panel (spec 01 sections 2, 4 and 5): limit or market mode for both halves; price
// (disabled in market mode, where it shows the latest price), quantity, a slider in 25 % steps that
// proposes the quantity the available balance allows, the total, and the button - or log in and sign up
// for visitors - with a link to transfer funds into the spot wallet. Limit orders take a time in force (GTC,
// IOC, FOK, post-only); the stop-limit mode adds a stop price; a market order shows the server's estimate
// against the book (total, average and worst price, the protection band, why it would stop short).

export type Mode = 1 | 2;
/** The form's order kinds: limit and stop-limit are sent as mode 2, market as mode 1. */
export type OrderKind = 'limit' | 'market' | 'stop';

export const TIME_IN_FORCE_OPTIONS: readonly SpotTimeInForce[] = ['gtc', 'ioc', 'fok', 'post_only'];
/** Wait this long after the last keystroke before asking for a market order's estimate. */
export const ESTIMATE_DELAY_MS = 300;

export interface PickedPrice {
  price: string;
  /** Changes with every pick, so picking the same price twice still fills it in. */
  nonce: number;
}

interface OrderFormProps {
  pair: Pair;
  market: SpotMarketInfo;
  loggedIn: boolean;
  lastPrice: string | null;
  /** Available quote balance (to buy with) and base balance (to sell). */
  quoteAvailable: string | null;
  baseAvailable: string | null;
  picked: PickedPrice | null;
  onPlaced: (order: PlacedOrder) => void;
}

export function OrderForm(props: OrderFormProps) {
  const { t } = useTranslation();
  const [kind, setKind] = useState<OrderKind>('limit');
  const [timeInForce, setTimeInForce] = useState<SpotTimeInForce>('gtc');
  return (
    <section
      className="fx-spot-panel fx-spot-form"
      aria-label={t('spot.form.title')}
      data-testid="order-form"
    >
      <header className="fx-spot-panel-head">
        <CompactSegmented
          value={kind}
          onChange={(value) => setKind(value === 'market' || value === 'stop' ? value : 'limit')}
          options={[
            { value: 'limit', label: <span data-testid="mode-limit">{t('spot.form.limit')}</span> },
            { value: 'market', label: <span data-testid="mode-market">{t('spot.form.market')}</span> },
            { value: 'stop', label: <span data-testid="mode-stop">{t('spot.form.stopLimit')}</span> },
          ]}
        />
        <Link to="/transferLegal" className="fx-spot-transfer" data-testid="transfer-link">
          <SwapOutlined /> {t('spot.form.transfer')}
        </Link>
      </header>
      {kind === 'limit' && (
        <div className="fx-spot-tif" data-testid="time-in-force">
          <span className="fx-spot-muted">{t('spot.form.timeInForce')}</span>
          <CompactSegmented
            size="small"
            value={timeInForce}
            onChange={(value) =>
              setTimeInForce(TIME_IN_FORCE_OPTIONS.find((option) => option === value) ?? 'gtc')
            }
            options={TIME_IN_FORCE_OPTIONS.map((option) => ({
              value: option,
              label: (
                <span data-testid={`tif-${option}`} title={t(`spot.form.tifHint.${option}`)}>
                  {t(`spot.form.tif.${option}`)}
                </span>
              ),
            }))}
          />
        </div>
      )}
      <div className="fx-spot-form-halves">
        <OrderHalf {...props} side="buy" kind={kind} timeInForce={timeInForce} />
        <OrderHalf {...props} side="sell" kind={kind} timeInForce={timeInForce} />
      </div>
    </section>
  );
}

interface OrderHalfProps extends OrderFormProps {
  side: 'buy' | 'sell';
  kind: OrderKind;
  timeInForce: SpotTimeInForce;
}

function OrderHalf({
  pair,
  market,
  loggedIn,
  lastPrice,
  quoteAvailable,
  baseAvailable,
  picked,
  onPlaced,
  side,
  kind,
  timeInForce,
}: OrderHalfProps) {
  const { t } = useTranslation();
  const message = useMessage();
  const mode: Mode = kind === 'market' ? 1 : 2;
  const [price, setPrice] = useState(lastPrice ?? '');
  const [stopPrice, setStopPrice] = useState('');
  const [amount, setAmount] = useState('');
  const [percent, setPercent] = useState(0);
  const [busy, setBusy] = useState(false);
  const available = side === 'buy' ? quoteAvailable : baseAvailable;
  const availableCode = side === 'buy' ? market.legal_name : market.currency_name;
  const availableScale = side === 'buy' ? market.legal_scale : market.currency_scale;
  const effectivePrice = mode === 1 ? (lastPrice ?? '') : price;
  const total = orderTotal(effectivePrice, amount, market);
  const prefix = side === 'buy' ? 'buy' : 'sell';

  // A new pair starts from its own last price; a first price arriving fills an empty field.
  useEffect(() => {
    setPrice(lastPrice ?? '');
    setStopPrice('');
    setAmount('');
    setPercent(0);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a change of pair resets the form.
  }, [market.id]);
  useEffect(() => {
    if (lastPrice !== null) setPrice((current) => (current === '' ? lastPrice : current));
  }, [lastPrice]);
  useEffect(() => {
    if (picked !== null) setPrice(picked.price);
  }, [picked]);

  const sliderDisabled = !loggedIn || (side === 'buy' && !isPositive(effectivePrice, market.price_scale));
  const onSlide = (value: number) => {
    setPercent(value);
    const quantity = sliderQuantity({ side, percent: value, available, price: effectivePrice, market });
    if (quantity !== null) setAmount(value === 0 ? '' : quantity);
  };
  const onAmount = (text: string) => {
    const cleaned = cleanDecimalInput(text, market.number_scale);
    setAmount(cleaned);
    setPercent(sliderPercentOf({ side, available, price: effectivePrice, market, quantity: cleaned }));
  };

  const estimate = useMarketEstimate({
    pair,
    side,
    amount,
    enabled: kind === 'market' && loggedIn && isPositive(amount, market.number_scale),
  });

  const submit = async () => {
    if (kind === 'stop' && !isPositive(stopPrice, market.price_scale)) {
      void message.warning(t('spot.form.enterStopPrice'));
      return;
    }
    if (mode === 2 && !isPositive(price, market.price_scale)) {
      void message.warning(t(side === 'buy' ? 'spot.form.enterBuyPrice' : 'spot.form.enterSellPrice'));
      return;
    }
    const check = checkOrderAmount(amount, mode === 2 ? price : null, market);
    if (!check.ok) {
      void message.warning(
        check.reason === 'empty'
          ? t(side === 'buy' ? 'spot.form.enterBuyAmount' : 'spot.form.enterSellAmount')
          : check.reason === 'belowMinimum'
            ? t('spot.form.belowMinimum', { min: check.minimum, unit: market.currency_name })
            : t('spot.form.belowMinimumTotal', { min: check.minimum, unit: market.legal_name }),
      );
      return;
    }
    setBusy(true);
    try {
      const placed = await placeOrder({
        pair,
        side,
        mode,
        price,
        num: amount,
        timeInForce: kind === 'limit' ? timeInForce : undefined,
        stopPrice: kind === 'stop' ? stopPrice : undefined,
      });
      const nothingTraded =
        placed.order.status === 'cancelled' && !isPositive(placed.order.complete_number, market.number_scale);
      // A stop order's toast names its stop at the pair's price precision, grouped, as every list writes it.
      const stop = placed.order.stop_price ?? null;
      const said =
        stop === null
          ? placed.message
          : t('spot.form.stopPlaced', { stop: formatPrice(stop, market.price_scale) });
      void (nothingTraded ? message.warning(said) : message.success(said));
      setAmount('');
      setPercent(0);
      if (kind === 'stop') setStopPrice('');
      onPlaced(placed.order);
    } catch (error) {
      // A 999 answer opens the login dialog by itself; every other refusal is the server's own words.
      if (!(error instanceof ApiError && error.kind === 'not-logged-in')) {
        void message.error(error instanceof Error ? error.message : String(error));
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className={`fx-spot-half is-${side}`}
      data-testid={`${prefix}-form`}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <div className="fx-spot-available">
        <span className="fx-spot-muted">{t('spot.form.available')}</span>
        <span data-testid={`${prefix}-available`}>
          {loggedIn
            ? `${formatDown(available, availableScale)} ${availableCode}`
            : `${NO_VALUE} ${availableCode}`}
        </span>
      </div>
      {kind === 'stop' && (
        <label className="fx-spot-field" title={t('spot.form.stopHint')}>
          <span className="fx-spot-field-label">{t('spot.form.stopPrice')}</span>
          <CompactInput
            value={stopPrice}
            onChange={(value) => setStopPrice(cleanDecimalInput(value, market.price_scale))}
            suffix={market.legal_name}
            inputMode="decimal"
            autoComplete="off"
            data-testid={`${prefix}-stop-price`}
          />
        </label>
      )}
      <label className="fx-spot-field">
        <span className="fx-spot-field-label">
          {t(kind === 'stop' ? 'spot.form.limitPrice' : 'spot.form.price')}
        </span>
        <CompactInput
          value={
            mode === 1
              ? lastPrice === null
                ? t('spot.form.marketPrice')
                : formatPrice(lastPrice, market.price_scale)
              : price
          }
          disabled={mode === 1}
          onChange={(value) => setPrice(cleanDecimalInput(value, market.price_scale))}
          suffix={market.legal_name}
          inputMode="decimal"
          autoComplete="off"
          data-testid={`${prefix}-price`}
        />
      </label>
      <label className="fx-spot-field">
        <span className="fx-spot-field-label">{t('spot.form.amount')}</span>
        <CompactInput
          value={amount}
          onChange={onAmount}
          suffix={market.currency_name}
          inputMode="decimal"
          autoComplete="off"
          placeholder={t('spot.form.minimum', { min: market.min_number })}
          data-testid={`${prefix}-amount`}
        />
      </label>
      <PercentSlider
        value={percent}
        onChange={onSlide}
        step={SLIDER_STEP}
        marks={SLIDER_MARKS}
        disabled={sliderDisabled}
        label={t('spot.form.share')}
        testId={`${prefix}-slider`}
      />
      <div className="fx-spot-total">
        <span className="fx-spot-muted">
          {t(mode === 1 ? 'spot.form.estimatedTotal' : 'spot.form.total')}
        </span>
        <span data-testid={`${prefix}-total`}>
          {kind === 'market' && estimate.data !== undefined
            ? `${groupThousands(estimate.data.total)} ${market.legal_name}`
            : total === null || !isPositive(amount, market.number_scale)
              ? NO_VALUE
              : `${formatDown(total, market.legal_scale)} ${market.legal_name}`}
        </span>
      </div>
      {kind === 'market' && estimate.data !== undefined && (
        <EstimateDetails estimate={estimate.data} market={market} testId={`${prefix}-estimate`} />
      )}
      {loggedIn ? (
        <Button
          htmlType="submit"
          block
          size="large"
          loading={busy}
          className={`fx-spot-submit is-${side}`}
          data-testid={`${prefix}-submit`}
        >
          {t(side === 'buy' ? 'spot.form.buy' : 'spot.form.sell', { base: market.currency_name })}
        </Button>
      ) : (
        <div className="fx-spot-visitor">
          <Button
            block
            size="large"
            type="primary"
            onClick={() => openLoginDialog()}
            data-testid={`${prefix}-login`}
          >
            {t('spot.form.login')}
          </Button>
          <Link
            to="/components/register"
            className="fx-spot-register"
            data-testid={`${prefix}-register`}
            onClick={(event) => {
              // The sign-up dialog opens in place; the address still works without script or in a new tab.
              if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
                return;
              event.preventDefault();
              openRegisterDialog();
            }}
          >
            <Button block size="large" tabIndex={-1}>
              {t('spot.form.register')}
            </Button>
          </Link>
        </div>
      )}
      <p className="fx-spot-fee fx-spot-muted">
        {t('spot.form.fees', { maker: market.maker_fee, taker: market.taker_fee })}
      </p>
    </form>
  );
}

/** A market order's estimate once the amount has rested for ESTIMATE_DELAY_MS; refreshed with the book. */
function useMarketEstimate({
  pair,
  side,
  amount,
  enabled,
}: {
  pair: Pair;
  side: 'buy' | 'sell';
  amount: string;
  enabled: boolean;
}) {
  const [settled, setSettled] = useState(amount);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(amount), ESTIMATE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [amount]);
  return useQuery({
    queryKey: ['spot', 'estimate', pair.legalId, pair.currencyId, side, settled],
    queryFn: ({ signal }) =>
      fetchMarketEstimate({ legalId: pair.legalId, currencyId: pair.currencyId, side, num: settled }, signal),
    enabled: enabled && settled === amount,
    staleTime: 2_000,
    refetchInterval: 5_000,
    retry: false,
  });
}

function EstimateDetails({
  estimate,
  market,
  testId,
}: {
  estimate: MarketOrderEstimate;
  market: SpotMarketInfo;
  testId: string;
}) {
  const { t } = useTranslation();
  const price = (value: string | null) =>
    value === null ? NO_VALUE : `${groupThousands(value)} ${market.legal_name}`;
  return (
    <div className="fx-spot-estimate" data-testid={testId}>
      <dl>
        <div>
          <dt className="fx-spot-muted">{t('spot.form.estimate.filled')}</dt>
          <dd>{`${estimate.number} ${market.currency_name}`}</dd>
        </div>
        <div>
          <dt className="fx-spot-muted">{t('spot.form.estimate.average')}</dt>
          <dd>{price(estimate.average_price)}</dd>
        </div>
        <div>
          <dt className="fx-spot-muted">{t('spot.form.estimate.worst')}</dt>
          <dd>{price(estimate.worst_price)}</dd>
        </div>
        <div>
          <dt className="fx-spot-muted">{t('spot.form.estimate.band')}</dt>
          <dd>
            {estimate.band_price === null
              ? t('spot.form.estimate.noBand')
              : `${price(estimate.band_price)}${estimate.band_percent === null ? '' : ` (±${estimate.band_percent})`}`}
          </dd>
        </div>
        <div>
          <dt className="fx-spot-muted">{t('spot.form.estimate.fee')}</dt>
          <dd>{`${estimate.fee} ${estimate.fee_currency}`}</dd>
        </div>
      </dl>
      <p
        className={estimate.complete ? 'fx-spot-estimate-note' : 'fx-spot-estimate-note is-warning'}
        data-testid={`${testId}-note`}
      >
        {estimate.complete || estimate.stop_reason === null
          ? t('spot.form.estimate.complete')
          : t(`spot.form.estimate.stop_${estimate.stop_reason}`)}
      </p>
    </div>
  );
}
