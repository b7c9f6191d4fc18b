import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Button, Modal, Select } from 'antd';
import { SwapOutlined } from '@ant-design/icons';
import { LEVER_DEFAULT_MULTIPLE } from '@fairex/shared/api/lever.ts';
import { ApiError } from '../../data/api.ts';
import { openLoginDialog, openRegisterDialog } from '../auth/auth-dialogs.ts';
import { NO_VALUE, groupThousands } from '../../format/index.ts';
import { CompactInput } from '../../components/trading/CompactInput.tsx';
import { CompactSegmented } from '../../components/trading/CompactSegmented.tsx';
import { PercentSlider } from '../../components/trading/PercentSlider.tsx';
import { cleanDecimalInput } from '../../components/trading/order-math.ts';
import { useMessage } from '../../app/message.tsx';
import { submitLever, type LeverDealReply, type LeverTradeRow } from '../../data/lever.ts';
import type { Pair } from '../../data/spot.ts';
import { amountText, lotsForShare, minorOf, previewLever, ticksText } from './lever-math.ts';

// The leveraged order panel (spec 01 sections 2, 4, 5 and 9): go long and go short, each with market or
// limit, the price (disabled for market: the mark), lots, the multiple, a slider 0-100 in steps of 25 that
// proposes the lots the lever balance carries, then the contract value, the margin, the fee and the
// liquidation price, and a confirm dialog. A visitor sees log in and sign up.

const SLIDER_MARKS = [0, 25, 50, 75, 100] as const;

interface LeverFormProps {
  pair: Pair;
  deal: LeverDealReply;
  priceScale: number;
  quoteScale: number;
  mark: string | null;
  loggedIn: boolean;
  onPlaced: (trade: LeverTradeRow) => void;
}

export function LeverForm(props: LeverFormProps) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<0 | 1>(1);
  return (
    <section
      className="fx-spot-panel fx-lever-form"
      aria-label={t('lever.form.title')}
      data-testid="lever-form"
    >
      <header className="fx-spot-panel-head">
        <CompactSegmented
          value={String(mode)}
          onChange={(value) => setMode(value === '0' ? 0 : 1)}
          options={[
            { value: '1', label: <span data-testid="lever-mode-market">{t('lever.form.market')}</span> },
            { value: '0', label: <span data-testid="lever-mode-limit">{t('lever.form.limit')}</span> },
          ]}
        />
        <Link to="/transferLegal" className="fx-spot-transfer" data-testid="lever-transfer-link">
          <SwapOutlined /> {t('lever.form.transfer')}
        </Link>
      </header>
      <div className="fx-spot-form-halves">
        <LeverHalf {...props} side={1} mode={mode} />
        <LeverHalf {...props} side={2} mode={mode} />
      </div>
    </section>
  );
}

/** Basis points as a percent with two decimals (5000 -> "50.00"): a rule's rate, not money. */
function percentOfBp(bp: number): string {
  return `${Math.trunc(bp / 100)}.${String(bp % 100).padStart(2, '0')}`;
}

function LeverHalf({
  pair,
  deal,
  priceScale,
  quoteScale,
  mark,
  loggedIn,
  onPlaced,
  side,
  mode,
}: LeverFormProps & { side: 1 | 2; mode: 0 | 1 }) {
  const { t } = useTranslation();
  const message = useMessage();
  const prefix = side === 1 ? 'long' : 'short';
  const rules = deal.rules;
  const multiples = deal.multiple.muit.map((option) => option.value);
  const defaultMultiple = multiples.includes(LEVER_DEFAULT_MULTIPLE)
    ? LEVER_DEFAULT_MULTIPLE
    : (multiples[0] ?? null);
  const [multiple, setMultiple] = useState<number | null>(defaultMultiple);
  const [lots, setLots] = useState('');
  const [price, setPrice] = useState('');
  const [percent, setPercent] = useState(0);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);

  // Switching market/limit clears the multiple and totals and sets the price from the latest (spec 01 s4).
  useEffect(() => {
    setMultiple(defaultMultiple);
    setLots('');
    setPercent(0);
    setPrice(mode === 0 && mark !== null ? mark : '');
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a mode or pair switch resets the half.
  }, [mode, pair.legalId, pair.currencyId]);

  const calc = deal.calc;
  const basePrice = mode === 1 ? mark : price;
  const lotCount = /^\d{1,9}$/.test(lots) ? Number(lots) : 0;
  const preview =
    calc === null || basePrice === null || multiple === null || lotCount === 0
      ? null
      : previewLever({ calc, side, mode, price: basePrice, share: lotCount, multiple });
  const min = deal.lever_share_limit.min;
  const max = deal.lever_share_limit.max;

  const onSlide = (value: number) => {
    setPercent(value);
    if (calc === null || basePrice === null || multiple === null || deal.user_lever === null) return;
    const available = minorOf(deal.user_lever, quoteScale);
    if (available === null) return;
    const count = lotsForShare({
      calc,
      side,
      mode,
      price: basePrice,
      multiple,
      available,
      percent: value,
      max,
    });
    setLots(count > 0 ? String(count) : '');
  };

  const check = (): string | null => {
    if (pair.legalId <= 0 || pair.currencyId <= 0) return t('lever.form.choosePair');
    if (lots.trim() === '') return t('lever.form.enterLots');
    if (!/^\d+$/.test(lots.trim())) return t('lever.form.enterInteger');
    if (lotCount <= 0) return t('lever.form.greaterThanZero');
    if (lotCount < min) return t('lever.form.belowMin', { min });
    if (max > 0 && lotCount > max) return t('lever.form.aboveMax', { max });
    if (multiple === null) return t('lever.form.chooseMultiple');
    if (mode === 0 && price.trim() === '') return t('lever.form.enterPrice');
    return null;
  };

  const submit = async () => {
    setBusy(true);
    try {
      const reply = await submitLever({
        legal_id: pair.legalId,
        currency_id: pair.currencyId,
        multiple: multiple ?? 0,
        share: lotCount,
        type: side,
        status: mode,
        ...(mode === 0 ? { target_price: price } : {}),
      });
      void message.success(
        t(mode === 0 ? 'lever.form.entered' : 'lever.form.opened', { id: reply.trade.id }),
      );
      setConfirming(false);
      setLots('');
      setPercent(0);
      onPlaced(reply.trade);
    } catch (error) {
      void message.error(error instanceof ApiError ? error.message : t('lever.form.failed'));
      setConfirming(false);
    } finally {
      setBusy(false);
    }
  };

  const legal = pair.legalName;
  const figure = (value: bigint | null | undefined) =>
    value === null || value === undefined
      ? NO_VALUE
      : `${groupThousands(amountText(value, quoteScale))} ${legal}`;
  const rows: [string, string, string][] = [
    [t('lever.form.value'), figure(preview?.value), 'value'],
    [t('lever.form.margin'), figure(preview?.margin), 'margin'],
    [t('lever.form.fee'), figure(preview?.fee), 'fee'],
    [
      t('lever.form.liquidation'),
      preview === null || calc === null
        ? NO_VALUE
        : preview.liquidationTicks === null
          ? t('lever.form.noLiquidation')
          : `${groupThousands(ticksText(calc, preview.liquidationTicks))} ${legal}`,
      'liquidation',
    ],
  ];
  // No liquidation price: say why rather than leave a bare dash.
  const unreachable = preview !== null && calc !== null && preview.liquidationTicks === null;
  // A pair with a higher threshold than the account's raises it for every position in the currency.
  const account = calc?.account ?? null;
  const raises =
    calc !== null &&
    account !== null &&
    account.origin_margin_minor !== '0' &&
    calc.threshold_bp > account.threshold_bp
      ? t('lever.form.raisesThreshold', {
          pair: percentOfBp(calc.threshold_bp),
          account: percentOfBp(account.threshold_bp),
          legal,
        })
      : null;

  return (
    <form
      className={`fx-spot-half fx-lever-half is-${side === 1 ? 'buy' : 'sell'}`}
      data-testid={`${prefix}-form`}
      onSubmit={(event) => {
        event.preventDefault();
        if (!loggedIn) return;
        const problem = check();
        if (problem !== null) {
          void message.warning(problem);
          return;
        }
        setConfirming(true);
      }}
    >
      <div className="fx-spot-available">
        <span className="fx-spot-muted">{t('lever.form.available')}</span>
        <span data-testid={`${prefix}-available`}>
          {loggedIn && deal.user_lever !== null
            ? `${groupThousands(deal.user_lever)} ${legal}`
            : `${NO_VALUE} ${legal}`}
        </span>
      </div>
      <label className="fx-spot-field">
        <span className="fx-spot-field-label">{t('lever.form.price')}</span>
        <CompactInput
          value={mode === 1 ? (mark === null ? t('lever.form.marketPrice') : groupThousands(mark)) : price}
          disabled={mode === 1}
          onChange={(value) => setPrice(cleanDecimalInput(value, priceScale))}
          suffix={legal}
          inputMode="decimal"
          autoComplete="off"
          data-testid={`${prefix}-price`}
        />
      </label>
      <label className="fx-spot-field">
        <span className="fx-spot-field-label">{t('lever.form.lots')}</span>
        <CompactInput
          value={lots}
          onChange={(value) => {
            setLots(value.replace(/[^\d.]/g, '').slice(0, 9));
            setPercent(0);
          }}
          suffix={t('lever.form.lotUnit')}
          inputMode="numeric"
          autoComplete="off"
          placeholder={max > 0 ? `${min} - ${max}` : String(min)}
          data-testid={`${prefix}-lots`}
        />
      </label>
      <label className="fx-spot-field">
        <span className="fx-spot-field-label">{t('lever.form.multiple')}</span>
        <Select<number>
          size="small"
          value={multiple ?? undefined}
          placeholder={t('lever.form.chooseMultiple')}
          onChange={(value) => setMultiple(value)}
          options={multiples.map((value) => ({ value, label: `${value}X` }))}
          data-testid={`${prefix}-multiple`}
          style={{ width: '100%' }}
        />
      </label>
      <PercentSlider
        value={percent}
        onChange={onSlide}
        step={25}
        marks={SLIDER_MARKS}
        disabled={!loggedIn || basePrice === null || basePrice === ''}
        label={t('lever.form.share')}
        testId={`${prefix}-slider`}
      />
      <dl className="fx-lever-figures">
        {rows.map(([label, value, id]) => (
          <div key={id} className="fx-lever-figure">
            <dt className="fx-spot-muted">{label}</dt>
            <dd
              data-testid={`${prefix}-${id}`}
              title={id === 'liquidation' && unreachable ? t('lever.form.noLiquidationHint') : undefined}
            >
              {value}
            </dd>
          </div>
        ))}
      </dl>
      {raises !== null && (
        <p className="fx-lever-form-warning" role="note" data-testid={`${prefix}-raises-threshold`}>
          {raises}
        </p>
      )}
      {loggedIn ? (
        <Button
          htmlType="submit"
          block
          size="large"
          disabled={rules === null || !rules.enabled}
          className={`fx-spot-submit is-${side === 1 ? 'buy' : 'sell'}`}
          data-testid={`${prefix}-submit`}
        >
          {t(side === 1 ? 'lever.form.long' : 'lever.form.short')}
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
            {t('lever.form.login')}
          </Button>
          <Button block size="large" onClick={() => openRegisterDialog()} data-testid={`${prefix}-register`}>
            {t('lever.form.register')}
          </Button>
        </div>
      )}
      <Modal
        open={confirming}
        title={t(side === 1 ? 'lever.confirm.longTitle' : 'lever.confirm.shortTitle', {
          symbol: `${pair.currencyName}/${legal}`,
        })}
        okText={t('lever.confirm.ok')}
        cancelText={t('lever.confirm.cancel')}
        confirmLoading={busy}
        onOk={() => void submit()}
        onCancel={() => setConfirming(false)}
        okButtonProps={{ 'data-testid': `${prefix}-confirm` } as Record<string, string>}
        destroyOnHidden
      >
        <dl className="fx-lever-confirm" data-testid={`${prefix}-confirm-dialog`}>
          <div>
            <dt>{t('lever.confirm.kind')}</dt>
            <dd>{t(mode === 1 ? 'lever.form.market' : 'lever.form.limit')}</dd>
          </div>
          <div>
            <dt>{t('lever.form.price')}</dt>
            <dd>
              {preview === null || calc === null
                ? NO_VALUE
                : `${groupThousands(ticksText(calc, preview.entryTicks))} ${legal}`}
            </dd>
          </div>
          <div>
            <dt>{t('lever.form.lots')}</dt>
            <dd>{lotCount}</dd>
          </div>
          <div>
            <dt>{t('lever.form.multiple')}</dt>
            <dd>{multiple === null ? NO_VALUE : `${multiple}X`}</dd>
          </div>
          {rows.map(([label, value, id]) => (
            <div key={id}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
        {unreachable && (
          <p className="fx-spot-muted" data-testid={`${prefix}-confirm-no-liquidation`}>
            {t('lever.form.noLiquidationHint')}
          </p>
        )}
        {raises !== null && <p className="fx-lever-form-warning">{raises}</p>}
        <p className="fx-spot-muted">
          {t(mode === 1 ? 'lever.confirm.marketNote' : 'lever.confirm.limitNote')}
        </p>
      </Modal>
    </form>
  );
}
