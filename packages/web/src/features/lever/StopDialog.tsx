import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { InputNumber, Modal } from 'antd';
import { ApiError } from '../../data/api.ts';
import { useMessage } from '../../app/message.tsx';
import { NO_VALUE, groupThousands } from '../../format/index.ts';
import { setLeverStops, type LeverTradeRow } from '../../data/lever.ts';
import { amountText, expectedAtStop, notAbovePositive, stopSideOk } from './lever-math.ts';

// The stop-loss / take-profit dialog (spec 01 sections 2 and 5, spec 03 section 4): two prices in steps of
// 0.01, each with its expected profit or loss ((stop - entry) x number, the reverse for a short) and a note
// when it is on the wrong side (a long's take-profit above the entry and the mark, its stop-loss below both;
// a short's the reverse). The position closes at the mark that crosses, which may differ from the stop.

interface StopDialogProps {
  trade: LeverTradeRow | null;
  mark: string | null;
  onClose: () => void;
  onDone: () => void;
}

export function StopDialog({ trade, mark, onClose, onDone }: StopDialogProps) {
  const { t } = useTranslation();
  const message = useMessage();
  const [profit, setProfit] = useState<string>('');
  const [loss, setLoss] = useState<string>('');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    setProfit(trade?.target_profit_price ?? '');
    setLoss(trade?.stop_loss_price ?? '');
  }, [trade]);
  if (trade === null) return null;
  const priceScale = trade.price_scale;
  const quoteScale = trade.legal_scale;
  const currentMark = mark ?? trade.update_price;
  const expected = (stop: string) => {
    if (stop === '') return NO_VALUE;
    const value = expectedAtStop({
      side: trade.type,
      entry: trade.price,
      stop,
      number: trade.number,
      priceScale,
      quoteScale,
    });
    return value === null ? NO_VALUE : `${groupThousands(amountText(value, quoteScale))} ${trade.legal}`;
  };
  const sideNote = (stop: string, kind: 'profit' | 'loss') =>
    stop === '' ||
    stopSideOk({ side: trade.type, kind, stop, entry: trade.price, mark: currentMark, priceScale })
      ? null
      : t(`lever.stop.${kind}Side.${trade.type === 1 ? 'long' : 'short'}`);
  const field = (kind: 'profit' | 'loss', value: string, set: (text: string) => void) => {
    const note = sideNote(value, kind);
    return (
      <div className="fx-lever-stop-field">
        <label>
          <span>{t(kind === 'profit' ? 'lever.stop.takeProfit' : 'lever.stop.stopLoss')}</span>
          <InputNumber<string>
            stringMode
            min="0"
            step="0.01"
            value={value === '' ? null : value}
            onChange={(next) => {
              if (next !== null && notAbovePositive(next)) {
                void message.warning(t('lever.stop.greaterThanZero'));
                set('');
                return;
              }
              set(next ?? '');
            }}
            style={{ width: '100%' }}
            data-testid={`lever-stop-${kind}`}
          />
        </label>
        <div className="fx-lever-stop-expected">
          {t(kind === 'profit' ? 'lever.stop.expectedProfit' : 'lever.stop.expectedLoss')}:{' '}
          <span data-testid={`lever-stop-${kind}-expected`}>{expected(value)}</span>
        </div>
        {note === null ? null : (
          <div className="fx-lever-stop-note" role="alert">
            {note}
          </div>
        )}
      </div>
    );
  };
  return (
    <Modal
      open
      title={t('lever.stop.title', { id: trade.id, symbol: trade.symbol })}
      okText={t('lever.confirm.ok')}
      cancelText={t('lever.confirm.cancel')}
      confirmLoading={busy}
      okButtonProps={{ 'data-testid': 'lever-stop-confirm' } as Record<string, string>}
      onCancel={onClose}
      onOk={async () => {
        setBusy(true);
        try {
          await setLeverStops(trade.id, profit, loss);
          void message.success(t('lever.stop.saved'));
          onClose();
        } catch (error) {
          void message.error(error instanceof ApiError ? error.message : t('lever.form.failed'));
        } finally {
          setBusy(false);
          onDone();
        }
      }}
    >
      <dl className="fx-lever-confirm">
        <div>
          <dt>{t('lever.list.entry')}</dt>
          <dd>{groupThousands(trade.price)}</dd>
        </div>
        <div>
          <dt>{t('lever.list.mark')}</dt>
          <dd>{groupThousands(currentMark)}</dd>
        </div>
        <div>
          <dt>{t('lever.list.number')}</dt>
          <dd>
            {trade.number} {trade.currency}
          </dd>
        </div>
      </dl>
      {field('profit', profit, setProfit)}
      {field('loss', loss, setLoss)}
      <p className="fx-spot-muted">{t('lever.stop.disclosure')}</p>
    </Modal>
  );
}
