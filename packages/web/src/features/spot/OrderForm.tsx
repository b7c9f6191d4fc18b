import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Button } from 'antd';
import { CompactInput } from '../../components/trading/CompactInput.tsx';
import { SwapOutlined } from '@ant-design/icons';
import { ApiError } from '../../data/api.ts';
import { openLoginDialog, openRegisterDialog } from '../auth/auth-dialogs.ts';
import { NO_VALUE, groupThousands } from '../../format/index.ts';
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
import { useMessage } from '../../app/message.tsx';
import { CompactSegmented } from '../../components/trading/CompactSegmented.tsx';
import { PercentSlider } from '../../components/trading/PercentSlider.tsx';

// The buy and sell panel (spec 01 sections 2, 4 and 5): limit or market mode for both halves; price
// (disabled in market mode, where it shows the latest price), quantity, a slider in 25 % steps that
// proposes the quantity the available balance allows, the total, and the button - or log in and sign up
// for visitors - with a link to transfer funds into the spot wallet.

export type Mode = 1 | 2;

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
  const [mode, setMode] = useState<Mode>(2);
  return (
    <section
      className="fx-spot-panel fx-spot-form"
      aria-label={t('spot.form.title')}
      data-testid="order-form"
    >
      <header className="fx-spot-panel-head">
        <CompactSegmented
          value={mode}
          onChange={(value) => setMode(value === 1 ? 1 : 2)}
          options={[
            { value: 2, label: <span data-testid="mode-limit">{t('spot.form.limit')}</span> },
            { value: 1, label: <span data-testid="mode-market">{t('spot.form.market')}</span> },
          ]}
        />
        <Link to="/transferLegal" className="fx-spot-transfer" data-testid="transfer-link">
          <SwapOutlined /> {t('spot.form.transfer')}
        </Link>
      </header>
      <div className="fx-spot-form-halves">
        <OrderHalf {...props} side="buy" mode={mode} />
        <OrderHalf {...props} side="sell" mode={mode} />
      </div>
    </section>
  );
}

interface OrderHalfProps extends OrderFormProps {
  side: 'buy' | 'sell';
  mode: Mode;
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
  mode,
}: OrderHalfProps) {
  const { t } = useTranslation();
  const message = useMessage();
  const [price, setPrice] = useState(lastPrice ?? '');
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

  const submit = async () => {
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
      const placed = await placeOrder({ pair, side, mode, price, num: amount });
      const nothingTraded =
        placed.order.status === 'cancelled' && !isPositive(placed.order.complete_number, market.number_scale);
      void (nothingTraded ? message.warning(placed.message) : message.success(placed.message));
      setAmount('');
      setPercent(0);
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
      <label className="fx-spot-field">
        <span className="fx-spot-field-label">{t('spot.form.price')}</span>
        <CompactInput
          value={
            mode === 1 ? (lastPrice === null ? t('spot.form.marketPrice') : groupThousands(lastPrice)) : price
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
          {total === null || !isPositive(amount, market.number_scale)
            ? NO_VALUE
            : `${formatDown(total, market.legal_scale)} ${market.legal_name}`}
        </span>
      </div>
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
