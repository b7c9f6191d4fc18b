import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button, Input, Modal, Select } from 'antd';
import type { MicroPayableCurrency, MicroSecondsOption } from '@fairex/shared';
import { useMessage } from '../../app/message.tsx';
import { openLoginDialog, openRegisterDialog } from '../auth/auth-dialogs.ts';
import { submitMicroOrder, type MicroOrder } from '../../data/micro.ts';
import { formatAmount, previewOrder } from './micro-math.ts';

// The up/down panel (spec 02 section 2.5): a duration with its profit ratio, a payable currency, a preset or
// typed amount, and up and down buttons that ask for confirmation (stating the tie, void and fee rules)
// before submitting. A visitor sees login and register instead.

interface TradePanelProps {
  marketId: number | null;
  symbol: string;
  loggedIn: boolean;
  seconds: MicroSecondsOption[];
  currencies: MicroPayableCurrency[];
  onPlaced: (order: MicroOrder) => void;
}

/** Spec 02 section 9: the default payable currency. */
const DEFAULT_CURRENCY_ID = 3;

export function TradePanel({ marketId, symbol, loggedIn, seconds, currencies, onPlaced }: TradePanelProps) {
  const { t } = useTranslation();
  const message = useMessage();
  const [chosenSeconds, setChosenSeconds] = useState<number | null>(null);
  const [currencyId, setCurrencyId] = useState<number | null>(null);
  const [number, setNumber] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const option = seconds.find((candidate) => candidate.seconds === chosenSeconds) ?? seconds[0];
  const currency =
    currencies.find((candidate) => candidate.id === currencyId) ??
    currencies.find((candidate) => candidate.id === DEFAULT_CURRENCY_ID) ??
    currencies[0];
  const scale = currency === undefined ? 0 : decimalsOf(currency.micro_min);
  useEffect(() => {
    if (currency !== undefined && number === '' && currency.micro_numbers[0] !== undefined)
      setNumber(currency.micro_numbers[0].number);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only the first preset of a newly chosen currency.
  }, [currency?.id]);
  const preview = useMemo(
    () =>
      option === undefined || currency === undefined
        ? null
        : previewOrder({
            number,
            scale,
            feePercent: currency.micro_trade_fee,
            profitRatio: option.profit_ratio,
          }),
    [number, scale, currency, option],
  );

  const place = (type: 1 | 2) => {
    if (submitting || option === undefined || currency === undefined || marketId === null) return;
    if (number.trim() === '') {
      void message.error(t('micro.enterNumber'));
      return;
    }
    Modal.confirm({
      title: t(type === 1 ? 'micro.confirmUp' : 'micro.confirmDown', { symbol, seconds: option.seconds }),
      content: (
        <div className="fx-micro-confirm" data-testid="micro-confirm">
          <p>
            {t('micro.confirmAmount', {
              number: number.trim(),
              currency: currency.name,
              fee: preview === null ? '-' : formatAmount(preview.fee, scale),
            })}
          </p>
          <p>{t('micro.ruleOpen')}</p>
          <p>{t('micro.ruleWin', { ratio: option.profit_ratio })}</p>
          <p>{t('micro.ruleTie')}</p>
          <p>{t('micro.ruleVoid')}</p>
          <p>{t('micro.ruleFee', { fee: currency.micro_trade_fee })}</p>
        </div>
      ),
      okText: t('micro.confirm'),
      cancelText: t('micro.cancel'),
      onOk: async () => {
        setSubmitting(true);
        try {
          const order = await submitMicroOrder({
            match_id: marketId,
            currency_id: currency.id,
            type,
            seconds: option.seconds,
            number: number.trim(),
          });
          void message.success(t('micro.placed'));
          onPlaced(order);
        } catch (error) {
          void message.error(error instanceof Error ? error.message : String(error));
        } finally {
          setSubmitting(false);
        }
      },
    });
  };

  return (
    <section
      className="fx-micro-panel fx-micro-trade"
      aria-label={t('micro.panel')}
      data-testid="micro-panel"
    >
      <div className="fx-micro-title">{t('micro.panel')}</div>
      <div className="fx-micro-label">{t('micro.duration')}</div>
      <div className="fx-micro-seconds" role="radiogroup" aria-label={t('micro.duration')}>
        {seconds.map((candidate) => (
          <button
            key={candidate.seconds}
            type="button"
            role="radio"
            aria-checked={candidate.seconds === option?.seconds}
            className={
              candidate.seconds === option?.seconds ? 'fx-micro-chip fx-micro-chip-on' : 'fx-micro-chip'
            }
            onClick={() => setChosenSeconds(candidate.seconds)}
            data-testid={`micro-seconds-${candidate.seconds}`}
          >
            <span className="fx-micro-chip-main">
              {t('micro.secondsValue', { seconds: candidate.seconds })}
            </span>
            <span className="fx-micro-chip-sub">
              {t('micro.ratioValue', { ratio: candidate.profit_ratio })}
            </span>
          </button>
        ))}
      </div>
      <div className="fx-micro-label">{t('micro.currency')}</div>
      <Select
        className="fx-micro-select"
        value={currency?.id}
        onChange={(value: number) => {
          setCurrencyId(value);
          setNumber('');
        }}
        options={currencies.map((candidate) => ({ value: candidate.id, label: candidate.name }))}
        data-testid="micro-currency"
      />
      {loggedIn && currency?.user_wallet && (
        <div className="fx-micro-balance" data-testid="micro-balance">
          {t('micro.balance')}: {currency.user_wallet.micro_balance} {currency.name}
        </div>
      )}
      <div className="fx-micro-label">{t('micro.amount')}</div>
      <div className="fx-micro-presets">
        {currency?.micro_numbers.map((preset) => (
          <button
            key={preset.number}
            type="button"
            className={preset.number === number ? 'fx-micro-chip fx-micro-chip-on' : 'fx-micro-chip'}
            onClick={() => setNumber(preset.number)}
          >
            {trimZeros(preset.number)}
          </button>
        ))}
      </div>
      <Input
        value={number}
        onChange={(event) => setNumber(event.target.value)}
        inputMode="decimal"
        aria-label={t('micro.amount')}
        suffix={currency?.name}
        data-testid="micro-number"
      />
      <div className="fx-micro-preview" data-testid="micro-preview">
        <span>
          {t('micro.fee')}: {preview === null ? '-' : formatAmount(preview.fee, scale)}
        </span>
        <span>
          {t('micro.winPays')}: {preview === null ? '-' : formatAmount(preview.winPayout, scale)}
        </span>
      </div>
      {loggedIn ? (
        <div className="fx-micro-buttons">
          <Button
            size="large"
            className="fx-micro-up"
            disabled={submitting || marketId === null || option === undefined}
            onClick={() => place(1)}
            data-testid="micro-up"
          >
            {t('micro.up')}
          </Button>
          <Button
            size="large"
            className="fx-micro-down"
            disabled={submitting || marketId === null || option === undefined}
            onClick={() => place(2)}
            data-testid="micro-down"
          >
            {t('micro.down')}
          </Button>
        </div>
      ) : (
        <div className="fx-micro-buttons">
          <Button
            block
            size="large"
            type="primary"
            onClick={() => openLoginDialog()}
            data-testid="micro-login"
          >
            {t('micro.login')}
          </Button>
          <Link
            to="/components/register"
            onClick={(event) => {
              if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
                return;
              event.preventDefault();
              openRegisterDialog();
            }}
          >
            <Button block size="large" tabIndex={-1}>
              {t('micro.register')}
            </Button>
          </Link>
        </div>
      )}
    </section>
  );
}

function decimalsOf(text: string): number {
  const point = text.indexOf('.');
  return point < 0 ? 0 : text.length - point - 1;
}

function trimZeros(text: string): string {
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}
