import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Tabs } from 'antd';
import { AccountLayout } from '../account/AccountLayout.tsx';
import { RequireLogin } from '../auth/RequireLogin.tsx';
import type { DepositRecord, WithdrawalRecord } from '../../data/wallet.ts';
import '../assets/wallet.css';
import { depositColumns } from '../deposit/DepositPage.tsx';
import { withdrawalColumns } from '../withdrawal/WithdrawalPage.tsx';
import { PagedTable } from './RecordsPage.tsx';

/** The account area's deposit and withdrawal records (/chargeRecord). */
export default function ChargeRecordPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'withdrawals' ? 'withdrawals' : 'deposits';
  return (
    <AccountLayout title={t('wallet.chargeRecordTitle')} testId="charge-record-page">
      <RequireLogin>
        <Tabs
          activeKey={tab}
          onChange={(key) => setParams({ tab: key })}
          items={[
            {
              key: 'deposits',
              label: t('wallet.recordTabs.deposits'),
              children:
                tab === 'deposits' ? (
                  <PagedTable<DepositRecord>
                    path="/wallet/in_list"
                    columns={depositColumns(t)}
                    testId="charge-deposits"
                  />
                ) : null,
            },
            {
              key: 'withdrawals',
              label: t('wallet.recordTabs.withdrawals'),
              children:
                tab === 'withdrawals' ? (
                  <PagedTable<WithdrawalRecord>
                    path="/wallet/out_list"
                    columns={withdrawalColumns(t)}
                    testId="charge-withdrawals"
                  />
                ) : null,
            },
          ]}
        />
      </RequireLogin>
    </AccountLayout>
  );
}
