import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { Button, Input, Select } from 'antd';
import type { ColumnsType } from 'antd/es/table/index.js';
import { SwapOutlined } from '@ant-design/icons';
import {
  WALLET_TYPES,
  isWalletType,
  transfer,
  useBalanceRefresh,
  useCurrencyList,
  useRecentTransfers,
  useWalletDetail,
} from '../../data/wallet.ts';
import type { TransferRecord, WalletType } from '../../data/wallet.ts';
import { amountText } from '../assets/wallet-format.ts';
import { WalletTable, walletAmountColumn, walletTimeColumn } from '../assets/WalletTable.tsx';
import { WalletFrame, WalletPanel } from '../assets/WalletFrame.tsx';
import { DEFAULT_SIDES, chooseWallet, swapSides } from './transfer-sides.ts';
import type { TransferSides } from './transfer-sides.ts';
import { useMessage } from '../../app/message.tsx';

/** The default currency of the transfer page (spec 02 section 9: id 1, BTC). */
const DEFAULT_CURRENCY = 1;

/** Spec 02 section 2.3: move funds between the six wallets. */
export default function TransferPage() {
  const { t } = useTranslation();
  const message = useMessage();
  const [params] = useSearchParams();
  const refresh = useBalanceRefresh();
  const initialFrom = params.get('from');
  const [sides, setSides] = useState<TransferSides>(() =>
    isWalletType(initialFrom) && initialFrom !== 'change'
      ? { from: initialFrom, to: 'change' }
      : DEFAULT_SIDES,
  );
  const [currency, setCurrency] = useState<number>(() => Number(params.get('currency')) || DEFAULT_CURRENCY);
  const [amount, setAmount] = useState('');
  const [busy, setBusy] = useState(false);
  const currencies = useCurrencyList();
  const source = useWalletDetail(sides.from, currency);
  const records = useRecentTransfers();
  const wallets = WALLET_TYPES.map((type) => ({ value: type, label: t(`wallet.names.${type}`) }));
  const currencyName = currencies.data?.find((item) => item.id === currency)?.name ?? '';

  const submit = async () => {
    setBusy(true);
    try {
      const text = await transfer({ from: sides.from, to: sides.to, currency, number: amount.trim() });
      void message.success(text);
      setAmount('');
      await refresh();
    } catch (error) {
      void message.error((error as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <WalletFrame title={t('wallet.transferTitle')} testId="transfer-page">
      <div className="fx-wallet-grid">
        <WalletPanel>
          <div className="fx-wallet-field">
            <label className="fx-wallet-field-label" htmlFor="transfer-currency">
              {t('wallet.currency')}
            </label>
            <Select
              id="transfer-currency"
              style={{ width: '100%' }}
              value={currency}
              onChange={(value: number) => setCurrency(value)}
              options={(currencies.data ?? []).map((item) => ({ value: item.id, label: item.name }))}
              data-testid="transfer-currency"
            />
          </div>
          <div className="fx-wallet-swap fx-wallet-field">
            <div className="fx-wallet-field">
              <label className="fx-wallet-field-label">{t('wallet.fromWallet')}</label>
              <Select
                style={{ width: '100%' }}
                value={sides.from}
                onChange={(value: WalletType) => setSides(chooseWallet(sides, 'from', value))}
                options={wallets}
                data-testid="transfer-from"
              />
            </div>
            <Button
              icon={<SwapOutlined />}
              aria-label={t('wallet.swapSides')}
              onClick={() => setSides(swapSides(sides))}
              data-testid="transfer-swap"
            />
            <div className="fx-wallet-field">
              <label className="fx-wallet-field-label">{t('wallet.toWallet')}</label>
              <Select
                style={{ width: '100%' }}
                value={sides.to}
                onChange={(value: WalletType) => setSides(chooseWallet(sides, 'to', value))}
                options={wallets}
                data-testid="transfer-to"
              />
            </div>
          </div>
          <div className="fx-wallet-field">
            <label className="fx-wallet-field-label" htmlFor="transfer-amount">
              {t('wallet.amount')}
            </label>
            <Input
              id="transfer-amount"
              value={amount}
              onChange={(event) => setAmount(event.target.value)}
              inputMode="decimal"
              suffix={currencyName}
              data-testid="transfer-amount"
            />
            <div className="fx-wallet-hint">
              <span>
                {t('wallet.availableIn', { wallet: t(`wallet.names.${sides.from}`) })}{' '}
                <span className="fx-wallet-num" data-testid="transfer-available">
                  {amountText(source.data?.balance)}
                </span>{' '}
                {currencyName}
              </span>
              <Button type="link" size="small" onClick={() => setAmount(source.data?.balance ?? '')}>
                {t('wallet.all')}
              </Button>
            </div>
          </div>
          <Button
            type="primary"
            block
            loading={busy}
            onClick={() => void submit()}
            data-testid="transfer-submit"
          >
            {t('wallet.transferSubmit')}
          </Button>
        </WalletPanel>
        <WalletPanel title={t('wallet.recentTransfers')}>
          <WalletTable<TransferRecord>
            columns={transferColumns(t)}
            dataSource={records.data?.list ?? []}
            loading={records.isLoading}
            data-testid="transfer-records"
          />
        </WalletPanel>
      </div>
    </WalletFrame>
  );
}

/** A transfer between two of the user's wallets: when, which currency, from and to, how much. */
export function transferColumns(t: TFunction): ColumnsType<TransferRecord> {
  return [
    walletTimeColumn(t('wallet.time'), 'create_time'),
    { title: t('wallet.currency'), dataIndex: 'currency_name' },
    {
      title: t('wallet.fromWallet'),
      dataIndex: 'from_account',
      render: (value: WalletType) => t(`wallet.names.${value}`),
    },
    {
      title: t('wallet.toWallet'),
      dataIndex: 'to_account',
      render: (value: WalletType) => t(`wallet.names.${value}`),
    },
    walletAmountColumn(t('wallet.amount'), 'number'),
  ];
}
