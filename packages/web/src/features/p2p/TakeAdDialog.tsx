import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Input, Modal, Radio, Segmented, type ButtonProps } from 'antd';
import { Link } from 'react-router';
import { takeAd, usePaymentMethods, type P2pAd, type P2pOrder } from '../../data/p2p.ts';
import { DemoTag, MerchantLine, MethodTag, useSend } from './parts.tsx';
import { amountForFiat, checkFiatLimits, fiatForAmount, isPositiveAt } from './p2p-math.ts';
import { groupThousands } from '../../format/index.ts';

// Taking an ad: type the fiat to pay (or the coins), see the other side computed exactly as the server
// will (docs/p2p.md rounding), pick one's own payment method when selling, and open the order. The seller's
// coins are escrowed by the same command that creates the order.

export interface TakeAdDialogProps {
  ad: P2pAd | null;
  takerSide: 'buy' | 'sell';
  /** The coin's scale (decimals) from the config. */
  coinScale: number;
  onClose: () => void;
  onTaken: (order: P2pOrder) => void;
}

export function TakeAdDialog({ ad, takerSide, coinScale, onClose, onTaken }: TakeAdDialogProps) {
  const { t } = useTranslation();
  const [by, setBy] = useState<'fiat' | 'amount'>('fiat');
  const [value, setValue] = useState('');
  const [methodId, setMethodId] = useState<number | null>(null);
  const { busy, error, setError, send } = useSend();
  const methods = usePaymentMethods(ad !== null && takerSide === 'sell');
  if (ad === null) return null;

  const usable = (methods.data ?? []).filter((method) => method.active && ad.methods.includes(method.method));
  const fiat = by === 'fiat' ? value : (fiatForAmount(value, ad.price, coinScale) ?? '');
  const amount = by === 'amount' ? value : (amountForFiat(value, ad.price, coinScale) ?? '');
  const readable = by === 'fiat' ? isPositiveAt(value, 2) : isPositiveAt(value, coinScale);
  const limits = readable ? checkFiatLimits(fiat, ad.min_fiat, ad.max_fiat) : 'unreadable';

  const submit = async () => {
    if (!readable) return setError(t('p2p.take.enterAmount'));
    if (limits === 'belowMin') return setError(t('p2p.take.belowMin', { min: ad.min_fiat, fiat: ad.fiat }));
    if (limits === 'aboveMax') return setError(t('p2p.take.aboveMax', { max: ad.max_fiat, fiat: ad.fiat }));
    if (takerSide === 'sell' && methodId === null) return setError(t('p2p.take.chooseMethod'));
    await send(async () => {
      const order = await takeAd({
        ad_id: ad.id,
        fiat_amount: by === 'fiat' ? value.trim() : undefined,
        amount: by === 'amount' ? value.trim() : undefined,
        method_id: takerSide === 'sell' ? (methodId ?? undefined) : undefined,
      });
      setValue('');
      onTaken(order);
    });
  };

  return (
    <Modal
      open
      onCancel={onClose}
      title={
        takerSide === 'buy'
          ? t('p2p.buyAsset', { asset: ad.currency_name })
          : t('p2p.sellAsset', { asset: ad.currency_name })
      }
      okText={takerSide === 'buy' ? t('p2p.take.confirmBuy') : t('p2p.take.confirmSell')}
      onOk={() => void submit()}
      confirmLoading={busy}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'p2p-take-confirm' } as ButtonProps}
    >
      <div className="fx-p2p-take" data-testid="p2p-take-dialog">
        <div className="fx-p2p-take-merchant">
          <strong>{ad.merchant.nickname}</strong>
          {ad.merchant.demo === true && <DemoTag />}
          <MerchantLine stats={ad.merchant} />
        </div>
        <div className="fx-p2p-take-facts">
          <span>
            {t('p2p.price')}: <strong>{ad.price}</strong> {ad.fiat}
          </span>
          <span>
            {t('p2p.limits')}: {groupThousands(ad.min_fiat)} - {groupThousands(ad.max_fiat)} {ad.fiat}
          </span>
          <span>{t('p2p.windowMinutes', { minutes: ad.window_minutes })}</span>
        </div>
        <Segmented
          block
          value={by}
          onChange={(next) => {
            setBy(next as 'fiat' | 'amount');
            setValue('');
          }}
          options={[
            { value: 'fiat', label: t('p2p.take.byFiat', { fiat: ad.fiat }) },
            { value: 'amount', label: t('p2p.take.byAmount', { asset: ad.currency_name }) },
          ]}
        />
        <Input
          size="large"
          inputMode="decimal"
          value={value}
          onChange={(event) => setValue(event.target.value.trim())}
          suffix={by === 'fiat' ? ad.fiat : ad.currency_name}
          placeholder={t('p2p.take.placeholder', { min: ad.min_fiat, max: ad.max_fiat, fiat: ad.fiat })}
          data-testid="p2p-take-input"
        />
        <div className="fx-p2p-take-result" data-testid="p2p-take-result">
          {readable ? (
            by === 'fiat' ? (
              t('p2p.take.youGet', { amount, asset: ad.currency_name })
            ) : (
              t('p2p.take.youPay', { fiat, currency: ad.fiat })
            )
          ) : (
            <span className="fx-p2p-label">{t('p2p.take.enterAmount')}</span>
          )}
        </div>
        {takerSide === 'sell' && (
          <div className="fx-p2p-take-methods">
            <div className="fx-p2p-label">{t('p2p.take.receiveTo')}</div>
            {usable.length === 0 ? (
              <Alert
                type="warning"
                showIcon
                title={
                  <span>
                    {t('p2p.take.noMethod')} <Link to="/userSetting">{t('p2p.methods.add')}</Link>
                  </span>
                }
              />
            ) : (
              <Radio.Group value={methodId} onChange={(event) => setMethodId(event.target.value as number)}>
                {usable.map((method) => (
                  <Radio key={method.id} value={method.id} data-testid={`p2p-take-method-${method.id}`}>
                    <MethodTag method={method.method} /> {method.account}
                  </Radio>
                ))}
              </Radio.Group>
            )}
          </div>
        )}
        {ad.terms !== '' && (
          <div className="fx-p2p-terms">
            <div className="fx-p2p-label">{t('p2p.terms')}</div>
            <p>{ad.terms}</p>
          </div>
        )}
        {takerSide === 'sell' && <Alert type="info" showIcon title={t('p2p.take.escrowNote')} />}
        {error !== null && <Alert type="error" showIcon title={error} data-testid="p2p-take-error" />}
      </div>
    </Modal>
  );
}
