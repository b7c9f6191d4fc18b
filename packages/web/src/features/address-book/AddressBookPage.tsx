import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Button, Empty, Input, Popconfirm, Select, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table/index.js';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  addAddress,
  deleteAddress,
  useAddressBook,
  useWalletOverview,
  useWalletProtection,
  useWithdrawInfo,
} from '../../data/wallet.ts';
import type { BookEntry } from '../../data/wallet.ts';
import { WalletFrame, WalletPanel } from '../assets/WalletFrame.tsx';
import { SecondFactorField, secondFactorCodes } from '../withdrawal/SecondFactorField.tsx';
import { useMessage } from '../../app/message.tsx';

const DEFAULT_CURRENCY = 3;
/** The chain is found from the address's format unless one is picked. */
const AUTO = -1;

/** Spec 02 section 2.11: the user's withdrawal addresses per currency, with add and delete. */
export default function AddressBookPage() {
  const { t } = useTranslation();
  const message = useMessage();
  const [params, setParams] = useSearchParams();
  const currency = Number(params.get('id')) || DEFAULT_CURRENCY;
  const overview = useWalletOverview();
  const info = useWithdrawInfo(currency);
  const book = useAddressBook(currency);
  const [address, setAddress] = useState('');
  const [notes, setNotes] = useState('');
  const [chainType, setChainType] = useState<number>(AUTO);
  const [secondCode, setSecondCode] = useState('');
  const protection = useWalletProtection();
  const [busy, setBusy] = useState(false);
  const onChain = (overview.data?.change_wallet.balance ?? []).filter((line) => line.udun_id > -1);
  const chains = info.data?.chains ?? [];

  const add = async () => {
    setBusy(true);
    try {
      const reply = await addAddress({
        currency,
        address: address.trim(),
        notes: notes.trim(),
        ...(chainType === AUTO ? {} : { type: chainType }),
        ...secondFactorCodes(protection.data?.method, secondCode),
      });
      void message.success(reply.message);
      setAddress('');
      setNotes('');
      setSecondCode('');
      await book.refetch();
    } catch (error) {
      void message.error((error as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const remove = async (entry: BookEntry) => {
    try {
      void message.success(await deleteAddress(entry.id));
      await book.refetch();
    } catch (error) {
      void message.error((error as Error).message);
    }
  };

  const columns: ColumnsType<BookEntry> = [
    { title: t('wallet.chain'), dataIndex: 'chain', width: 100 },
    {
      title: t('wallet.address'),
      dataIndex: 'address',
      render: (value: string) => (
        <span className="fx-wallet-num" style={{ wordBreak: 'break-all', whiteSpace: 'normal' }}>
          {value}
        </span>
      ),
    },
    { title: t('wallet.notes'), dataIndex: 'notes', render: (value: string) => value || '--' },
    {
      title: t('wallet.actions'),
      align: 'right',
      width: 110,
      render: (_, entry) => (
        <Popconfirm
          title={t('wallet.deleteConfirm')}
          onConfirm={() => void remove(entry)}
          okText={t('wallet.delete')}
          cancelText={t('wallet.cancel')}
        >
          <Button type="link" danger icon={<DeleteOutlined />} data-testid={`book-delete-${entry.id}`}>
            {t('wallet.delete')}
          </Button>
        </Popconfirm>
      ),
    },
  ];

  return (
    <WalletFrame title={t('wallet.addressBookTitle')} testId="address-book-page">
      <WalletPanel>
        <div className="fx-wallet-field" style={{ maxWidth: 320 }}>
          <label className="fx-wallet-field-label">{t('wallet.currency')}</label>
          <Select
            style={{ width: '100%' }}
            value={currency}
            onChange={(value: number) => setParams({ id: String(value) })}
            options={onChain.map((line) => ({ value: line.currency, label: line.currency_name }))}
            data-testid="book-currency"
          />
        </div>
        <Table<BookEntry>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={book.data ?? []}
          pagination={false}
          loading={book.isLoading}
          scroll={{ x: 640 }}
          locale={{ emptyText: <Empty description={t('wallet.noAddresses')} /> }}
          data-testid="book-list"
        />
      </WalletPanel>
      <WalletPanel title={t('wallet.addAddress')}>
        <div className="fx-wallet-grid">
          <div>
            {chains.length > 1 ? (
              <div className="fx-wallet-field">
                <label className="fx-wallet-field-label">{t('wallet.chain')}</label>
                <Select
                  style={{ width: '100%' }}
                  value={chainType}
                  onChange={(value: number) => setChainType(value)}
                  options={[
                    { value: AUTO, label: t('wallet.chainAuto') },
                    ...chains.map((chain) => ({ value: chain.type, label: chain.code })),
                  ]}
                  data-testid="book-chain"
                />
              </div>
            ) : null}
            <div className="fx-wallet-field">
              <label className="fx-wallet-field-label" htmlFor="book-address">
                {t('wallet.address')}
              </label>
              <Input
                id="book-address"
                value={address}
                onChange={(event) => setAddress(event.target.value)}
                data-testid="book-address"
              />
            </div>
            <div className="fx-wallet-field">
              <label className="fx-wallet-field-label" htmlFor="book-notes">
                {t('wallet.notesOptional')}
              </label>
              <Input
                id="book-notes"
                value={notes}
                maxLength={64}
                onChange={(event) => setNotes(event.target.value)}
                data-testid="book-notes"
              />
            </div>
            <SecondFactorField value={secondCode} onChange={setSecondCode} testIdPrefix="book" />
            <Button
              type="primary"
              icon={<PlusOutlined />}
              loading={busy}
              onClick={() => void add()}
              data-testid="book-add"
            >
              {t('wallet.addAddress')}
            </Button>
          </div>
          <ul className="fx-wallet-tips">
            <li>{t('wallet.addressTipCheck')}</li>
            {chains.length > 1 ? <li>{t('wallet.addressTipChain')}</li> : null}
          </ul>
        </div>
      </WalletPanel>
    </WalletFrame>
  );
}
