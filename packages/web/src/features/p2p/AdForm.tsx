import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Checkbox, Form, Input, Modal, Segmented, Select, type ButtonProps } from 'antd';
import { Link } from 'react-router';
import {
  createAd,
  editAd,
  usePaymentMethods,
  type AdFormValues,
  type P2pAd,
  type P2pConfig,
  type P2pFiat,
} from '../../data/p2p.ts';
import { dateTimeOf } from '../../components/trading/display.ts';
import { MethodTag, useSend } from './parts.tsx';
import { checkFiatLimits, defaultAsset, isPositiveAt } from './p2p-math.ts';

// Posting (or editing) an ad: side, asset, fiat, a fixed price or the reference plus or minus a percent,
// the total (a sell ad escrows it when posted), the per-order limits in fiat, up to three of the merchant's
// payment methods, the payment window and terms. The server validates every field again.

interface Draft {
  side: 'buy' | 'sell';
  currencyId: number;
  fiat: P2pFiat;
  priceType: 'fixed' | 'floating';
  price: string;
  floatPercent: string;
  total: string;
  minFiat: string;
  maxFiat: string;
  methodIds: number[];
  window: number;
  terms: string;
}

function draftOf(config: P2pConfig, ad: P2pAd | null): Draft {
  return {
    side: ad?.side ?? 'sell',
    currencyId: ad?.currency_id ?? defaultAsset(config.assets)?.currency_id ?? 0,
    fiat: ad?.fiat ?? config.fiats[0] ?? 'CNY',
    priceType: ad?.price_type ?? 'fixed',
    price: ad?.price_type === 'fixed' ? ad.price : '',
    floatPercent: ad?.float_percent ?? '',
    total: ad?.total ?? '',
    minFiat: ad?.min_fiat ?? '',
    maxFiat: ad?.max_fiat ?? '',
    methodIds: [],
    window: ad?.window_minutes ?? config.default_window_minutes,
    terms: ad?.terms ?? '',
  };
}

/** The first problem with a draft, as a message key, or null (the server checks the same and more). */
export function draftProblem(draft: Draft, scale: number): string | null {
  if (draft.priceType === 'fixed' && !isPositiveAt(draft.price, 2)) return 'p2p.adForm.needPrice';
  if (draft.priceType === 'floating' && !/^-?\d{1,2}(\.\d{1,2})?$/.test(draft.floatPercent.trim()))
    return 'p2p.adForm.needPercent';
  if (!isPositiveAt(draft.total, scale)) return 'p2p.adForm.needTotal';
  if (!isPositiveAt(draft.minFiat, 2) || !isPositiveAt(draft.maxFiat, 2)) return 'p2p.adForm.needLimits';
  if (checkFiatLimits(draft.minFiat, draft.minFiat, draft.maxFiat) !== 'ok') return 'p2p.adForm.minAboveMax';
  if (draft.methodIds.length === 0) return 'p2p.adForm.needMethod';
  return null;
}

export function AdForm({
  config,
  ad,
  onClose,
  onSaved,
}: {
  config: P2pConfig;
  /** Editing this ad; null posts a new one. */
  ad: P2pAd | null;
  onClose: () => void;
  onSaved: (ad: P2pAd) => void;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<Draft>(() => draftOf(config, ad));
  const { busy, error, setError, send } = useSend();
  const methods = usePaymentMethods();
  const active = (methods.data ?? []).filter((method) => method.active);
  const asset = config.assets.find((item) => item.currency_id === draft.currencyId);
  const reference = config.references.find(
    (item) => item.currency_id === draft.currencyId && item.fiat === draft.fiat,
  );
  const set = (changes: Partial<Draft>) => setDraft((current) => ({ ...current, ...changes }));

  const submit = async () => {
    const problem = draftProblem(draft, asset?.scale ?? 8);
    if (problem !== null) return setError(t(problem as 'p2p.adForm.needPrice'));
    const values: AdFormValues = {
      side: draft.side,
      currency_id: draft.currencyId,
      fiat: draft.fiat,
      price_type: draft.priceType,
      price: draft.priceType === 'fixed' ? draft.price.trim() : undefined,
      float_percent: draft.priceType === 'floating' ? draft.floatPercent.trim() : undefined,
      total: draft.total.trim(),
      min_fiat: draft.minFiat.trim(),
      max_fiat: draft.maxFiat.trim(),
      method_ids: draft.methodIds,
      window_minutes: draft.window,
      terms: draft.terms.trim() === '' ? undefined : draft.terms.trim(),
    };
    await send(async () => {
      if (ad === null) {
        onSaved(await createAd(values));
      } else {
        const { side: _side, currency_id: _asset, fiat: _fiat, total: _total, ...editable } = values;
        onSaved(await editAd(ad.id, editable));
      }
    });
  };

  return (
    <Modal
      open
      onCancel={onClose}
      title={ad === null ? t('p2p.adForm.title') : t('p2p.adForm.editTitle', { id: ad.id })}
      okText={ad === null ? t('p2p.adForm.post') : t('p2p.adForm.save')}
      onOk={() => void submit()}
      confirmLoading={busy}
      destroyOnHidden
      width={560}
      okButtonProps={{ 'data-testid': 'p2p-ad-submit' } as ButtonProps}
    >
      <Form layout="vertical" className="fx-p2p-ad-form" data-testid="p2p-ad-form">
        <div className="fx-p2p-form-row">
          <Form.Item label={t('p2p.adForm.side')}>
            <Segmented
              disabled={ad !== null}
              value={draft.side}
              onChange={(value) => set({ side: value as 'buy' | 'sell' })}
              options={[
                { value: 'sell', label: <span data-testid="p2p-ad-side-sell">{t('p2p.adForm.iSell')}</span> },
                { value: 'buy', label: <span data-testid="p2p-ad-side-buy">{t('p2p.adForm.iBuy')}</span> },
              ]}
            />
          </Form.Item>
          <Form.Item label={t('p2p.asset')}>
            <Select
              disabled={ad !== null}
              value={draft.currencyId}
              onChange={(value) => set({ currencyId: value })}
              options={config.assets.map((item) => ({ value: item.currency_id, label: item.name }))}
            />
          </Form.Item>
          <Form.Item label={t('p2p.fiat')}>
            <Select
              disabled={ad !== null}
              value={draft.fiat}
              onChange={(value) => set({ fiat: value })}
              options={config.fiats.map((value) => ({ value, label: value }))}
            />
          </Form.Item>
        </div>
        <Form.Item label={t('p2p.adForm.priceType')}>
          <Segmented
            value={draft.priceType}
            onChange={(value) => set({ priceType: value as 'fixed' | 'floating' })}
            options={[
              { value: 'fixed', label: t('p2p.adForm.fixed') },
              { value: 'floating', label: t('p2p.adForm.floating') },
            ]}
          />
        </Form.Item>
        {draft.priceType === 'fixed' ? (
          <Form.Item label={t('p2p.adForm.price', { fiat: draft.fiat })}>
            <Input
              inputMode="decimal"
              value={draft.price}
              onChange={(event) => set({ price: event.target.value.trim() })}
              suffix={draft.fiat}
              data-testid="p2p-ad-price"
            />
          </Form.Item>
        ) : (
          <Form.Item
            label={t('p2p.adForm.percent')}
            extra={
              reference?.price
                ? t('p2p.adForm.reference', { price: reference.price, fiat: draft.fiat }) +
                  (reference.time === null
                    ? ''
                    : ` · ${t('p2p.referenceSet', { time: dateTimeOf(reference.time) })}`)
                : t('p2p.adForm.noReference')
            }
          >
            <Input
              inputMode="decimal"
              value={draft.floatPercent}
              onChange={(event) => set({ floatPercent: event.target.value.trim() })}
              suffix="%"
              data-testid="p2p-ad-percent"
            />
          </Form.Item>
        )}
        <Form.Item
          label={t('p2p.adForm.total', { asset: asset?.name ?? '' })}
          extra={draft.side === 'sell' ? t('p2p.adForm.escrowNote') : undefined}
        >
          <Input
            inputMode="decimal"
            disabled={ad !== null}
            value={draft.total}
            onChange={(event) => set({ total: event.target.value.trim() })}
            suffix={asset?.name}
            data-testid="p2p-ad-total"
          />
        </Form.Item>
        <div className="fx-p2p-form-row">
          <Form.Item label={t('p2p.adForm.min', { fiat: draft.fiat })}>
            <Input
              inputMode="decimal"
              value={draft.minFiat}
              onChange={(event) => set({ minFiat: event.target.value.trim() })}
              data-testid="p2p-ad-min"
            />
          </Form.Item>
          <Form.Item label={t('p2p.adForm.max', { fiat: draft.fiat })}>
            <Input
              inputMode="decimal"
              value={draft.maxFiat}
              onChange={(event) => set({ maxFiat: event.target.value.trim() })}
              data-testid="p2p-ad-max"
            />
          </Form.Item>
          <Form.Item label={t('p2p.adForm.window')}>
            <Select
              value={draft.window}
              onChange={(value) => set({ window: value })}
              options={config.window_minutes.map((value) => ({
                value,
                label: t('p2p.minutes', { n: value }),
              }))}
              data-testid="p2p-ad-window"
            />
          </Form.Item>
        </div>
        <Form.Item label={t('p2p.adForm.methods')}>
          {active.length === 0 ? (
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
            <Checkbox.Group
              value={draft.methodIds}
              onChange={(value) => set({ methodIds: (value as number[]).slice(0, 3) })}
              className="fx-p2p-method-checks"
            >
              {active.map((method) => (
                <Checkbox key={method.id} value={method.id} data-testid={`p2p-ad-method-${method.id}`}>
                  <MethodTag method={method.method} /> {method.account}
                </Checkbox>
              ))}
            </Checkbox.Group>
          )}
        </Form.Item>
        <Form.Item label={t('p2p.terms')}>
          <Input.TextArea
            rows={3}
            maxLength={1000}
            value={draft.terms}
            onChange={(event) => set({ terms: event.target.value })}
          />
        </Form.Item>
      </Form>
      {error !== null && <Alert type="error" showIcon title={error} data-testid="p2p-ad-error" />}
    </Modal>
  );
}
