import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Alert, AutoComplete, Button, Input, Segmented, Select, Skeleton, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table/index.js';
import { ApiError } from '../../data/api.ts';
import {
  useAddressBook,
  useBalanceRefresh,
  usePagedRecords,
  useWalletOverview,
  useWalletProtection,
  useWithdrawInfo,
  withdraw,
} from '../../data/wallet.ts';
import type { WithdrawInfo, WithdrawalRecord, WithdrawalStatus } from '../../data/wallet.ts';
import { amountText } from '../assets/wallet-format.ts';
import { WalletFrame, WalletPanel } from '../assets/WalletFrame.tsx';
import { WalletTable, walletAmountColumn, walletTimeColumn } from '../assets/WalletTable.tsx';
import { SecondFactorField, secondFactorCodes } from './SecondFactorField.tsx';
import { receiveAfterFee } from './withdraw-amounts.ts';
import { useMessage } from '../../app/message.tsx';

const DEFAULT_CURRENCY = 3;

/** Spec 01 section 2: the withdrawal page (query id = currency): chain, address, amount, records. */
export default function WithdrawalPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const overview = useWalletOverview();
  const currency = Number(params.get('id')) || DEFAULT_CURRENCY;
  const info = useWithdrawInfo(currency);
  const onChain = (overview.data?.change_wallet.balance ?? []).filter((line) => line.udun_id > -1);
  return (
    <WalletFrame title={t('wallet.withdrawTitle')} testId="withdrawal-page">
      <div className="fx-wallet-grid">
        <WalletPanel>
          <div className="fx-wallet-field">
            <label className="fx-wallet-field-label">{t('wallet.currency')}</label>
            <Select
              style={{ width: '100%' }}
              value={currency}
              onChange={(value: number) => setParams({ id: String(value) })}
              options={onChain.map((line) => ({ value: line.currency, label: line.currency_name }))}
              data-testid="withdraw-currency"
            />
          </div>
          {info.error ? <Alert type="error" showIcon message={info.error.message} /> : null}
          {info.data?.real_name_required ? (
            <RealNameFirst />
          ) : info.data ? (
            <WithdrawForm key={currency} info={info.data} />
          ) : info.error ? null : (
            <Skeleton active />
          )}
        </WalletPanel>
        <WithdrawalRecords currency={currency} />
      </div>
    </WalletFrame>
  );
}

/** Withdrawals need the real name approved: asked before the form, not after it was filled in. */
function RealNameFirst() {
  const { t } = useTranslation();
  return (
    <Alert
      type="warning"
      showIcon
      title={t('wallet.realNameFirstTitle')}
      description={t('wallet.realNameFirst')}
      action={
        <Link to="/authentication" data-testid="withdraw-verify-link">
          {t('wallet.verifyNow')}
        </Link>
      }
      data-testid="withdraw-real-name"
    />
  );
}

function WithdrawForm({ info }: { info: WithdrawInfo }) {
  const { t } = useTranslation();
  const message = useMessage();
  const refresh = useBalanceRefresh();
  const [chainType, setChainType] = useState<number>(info.chains[0]?.type ?? 0);
  const [address, setAddress] = useState('');
  const [amount, setAmount] = useState('');
  const [secondCode, setSecondCode] = useState('');
  const protection = useWalletProtection();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<{ text: string; realName: boolean } | null>(null);
  const book = useAddressBook(info.currency);
  const chain = info.chains.find((item) => item.type === chainType);
  const saved = (book.data ?? []).filter((entry) => entry.chain_type === chainType);
  const receive = receiveAfterFee(amount, info.rate, info.scale);

  const submit = async () => {
    setBusy(true);
    setProblem(null);
    try {
      const text = await withdraw({
        currency: info.currency,
        number: amount.trim(),
        type: chainType,
        address: address.trim(),
        ...secondFactorCodes(protection.data?.method, secondCode),
      });
      void message.success(text);
      setAmount('');
      setSecondCode('');
      await refresh();
    } catch (error) {
      setProblem({
        text: (error as Error).message,
        realName: error instanceof ApiError && error.kind === 'real-name-required',
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      {info.chains.length > 1 ? (
        <div className="fx-wallet-field">
          <label className="fx-wallet-field-label">{t('wallet.chain')}</label>
          <Segmented<number>
            value={chainType}
            onChange={(value) => {
              setChainType(value);
              setAddress('');
            }}
            options={info.chains.map((item) => ({
              value: item.type,
              label: <span data-testid={`withdraw-chain-${item.code}`}>{item.code}</span>,
            }))}
          />
        </div>
      ) : null}
      <div className="fx-wallet-field">
        <label className="fx-wallet-field-label" htmlFor="withdraw-address">
          {t('wallet.withdrawAddress', { chain: chain?.code ?? '' })}
        </label>
        <AutoComplete
          id="withdraw-address"
          style={{ width: '100%' }}
          value={address}
          onChange={(value: string) => setAddress(value)}
          options={saved.map((entry) => ({
            value: entry.address,
            label: (
              <span data-testid={`withdraw-book-${entry.id}`}>
                {entry.notes ? <strong>{entry.notes} · </strong> : null}
                <span className="fx-wallet-num">{entry.address}</span>
              </span>
            ),
          }))}
          data-testid="withdraw-address"
        >
          <Input
            placeholder={saved.length > 0 ? t('wallet.withdrawAddressPick') : t('wallet.withdrawAddressType')}
          />
        </AutoComplete>
        <div className="fx-wallet-hint">
          <span />
          <Link to={`/withdraw_address?id=${info.currency}`}>{t('wallet.manageAddresses')}</Link>
        </div>
      </div>
      <div className="fx-wallet-field">
        <label className="fx-wallet-field-label" htmlFor="withdraw-amount">
          {t('wallet.amount')}
        </label>
        <Input
          id="withdraw-amount"
          value={amount}
          onChange={(event) => setAmount(event.target.value)}
          inputMode="decimal"
          suffix={info.name}
          data-testid="withdraw-amount"
        />
        <div className="fx-wallet-hint">
          <span>
            {t('wallet.available')}{' '}
            <span className="fx-wallet-num" data-testid="withdraw-available">
              {amountText(info.change_balance)}
            </span>{' '}
            {info.name}
          </span>
          <Button type="link" size="small" onClick={() => setAmount(info.change_balance)}>
            {t('wallet.all')}
          </Button>
        </div>
      </div>
      <dl className="fx-wallet-terms fx-wallet-terms-spaced">
        <dt>{t('wallet.withdrawMin')}</dt>
        <dd data-testid="withdraw-min">{`${amountText(info.min_number)} ${info.name}`}</dd>
        <dt>{t('wallet.withdrawFee')}</dt>
        <dd data-testid="withdraw-fee">{`${amountText(info.rate)} ${info.name}`}</dd>
        <dt>{t('wallet.withdrawReceive')}</dt>
        <dd data-testid="withdraw-receive">
          {receive === '' ? '--' : `${amountText(receive)} ${info.name}`}
        </dd>
      </dl>
      <SecondFactorField value={secondCode} onChange={setSecondCode} testIdPrefix="withdraw" />
      {problem ? (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 16 }}
          message={problem.text}
          action={problem.realName ? <Link to="/authentication">{t('wallet.verifyNow')}</Link> : undefined}
          data-testid="withdraw-problem"
        />
      ) : null}
      <Button type="primary" block loading={busy} onClick={() => void submit()} data-testid="withdraw-submit">
        {t('wallet.withdrawSubmit')}
      </Button>
      <p className="fx-wallet-note">{t('wallet.withdrawNote')}</p>
    </>
  );
}

/** The states a user's list shows: one waiting for its second factor (`requested`) is not listed yet. */
type ListedStatus = Exclude<WithdrawalStatus, 'requested'>;

const STATUS_COLOURS: Record<ListedStatus, string> = {
  pending: 'gold',
  approved: 'blue',
  completed: 'green',
  rejected: 'red',
  failed: 'red',
};

export function withdrawalColumns(t: TFunction): ColumnsType<WithdrawalRecord> {
  return [
    walletTimeColumn(t('wallet.time'), 'create_time'),
    { title: t('wallet.currency'), dataIndex: 'currency_name' },
    walletAmountColumn(t('wallet.amount'), 'number'),
    walletAmountColumn(t('wallet.withdrawFee'), 'fee'),
    {
      title: t('wallet.address'),
      dataIndex: 'address',
      render: (value: string, record) => (
        <span className="fx-wallet-num" title={value}>
          {`${record.chain} ${shortAddress(value)}`}
        </span>
      ),
    },
    {
      title: t('wallet.status'),
      dataIndex: 'status',
      render: (value: ListedStatus, record) => (
        <Tag
          color={STATUS_COLOURS[value]}
          title={record.note || undefined}
          data-testid={`withdrawal-status-${record.id}`}
        >
          {t(`wallet.withdrawStatus.${value}`)}
        </Tag>
      ),
    },
  ];
}

/** An address shortened to its first 8 and last 6 characters (the whole one shows on hover). */
function shortAddress(address: string): string {
  return address.length > 18 ? `${address.slice(0, 8)}…${address.slice(-6)}` : address;
}

/**
 * The page's own short list: when; how much, with the network and the address it goes to (shortened, the
 * whole address on hover) under the amount, so that it fits a phone; and where it stands.
 */
function compactColumns(t: TFunction): ColumnsType<WithdrawalRecord> {
  const all = withdrawalColumns(t);
  const amountAndDestination: ColumnsType<WithdrawalRecord>[number] = {
    title: `${t('wallet.amount')} / ${t('wallet.address')}`,
    dataIndex: 'number',
    render: (value: string, record) => (
      <div className="fx-wallet-out">
        <span className="fx-wallet-num">{amountText(value)}</span>
        <span
          className="fx-wallet-destination"
          title={record.address}
          data-testid={`withdrawal-destination-${record.id}`}
        >
          <Tag className="fx-wallet-network">{record.chain}</Tag>
          <span className="fx-wallet-num">{shortAddress(record.address)}</span>
        </span>
      </div>
    ),
  };
  return [all[0], amountAndDestination, all[5]].filter((column) => column !== undefined);
}

function WithdrawalRecords({ currency }: { currency: number }) {
  const { t } = useTranslation();
  const records = usePagedRecords<WithdrawalRecord>('/wallet/out_list', 1, { currency });
  return (
    <WalletPanel title={t('wallet.recentWithdrawals')}>
      <WalletTable<WithdrawalRecord>
        columns={compactColumns(t)}
        dataSource={records.data?.data ?? []}
        loading={records.isLoading}
        data-testid="withdrawal-records"
      />
    </WalletPanel>
  );
}
