import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Input, Modal, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table/index.js';
import type { DefiItem, DefiStake } from '@fairex/shared';
import { useMessage } from '../../app/message.tsx';
import { useSession } from '../../data/session.ts';
import {
  buyDefi,
  exitDefi,
  useDefiBalance,
  useDefiList,
  useDefiTotal,
  useProductsRefresh,
  type ProductTab,
} from '../../data/products.ts';
import { openLoginDialog } from '../auth/auth-dialogs.ts';
import { cutText } from '../assets/wallet-format.ts';
import {
  Countdown,
  Figure,
  LoginPrompt,
  ProductFrame,
  ProductLogo,
  ProductTabs,
  RiskNote,
  StatusTag,
  Whitepaper,
  num,
  when,
} from './ProductParts.tsx';
import { bpPercent, digitsOnly, positive, scaleOf, stakePreview } from './product-math.ts';
import { useBuyDialog } from './buy-dialog.ts';

// Defi staking, /defi (spec 02 section 2.8): the defi wallet's and the held stakes' totals in USDT, tabs -1
// running products, 1 holdings, 2 ended (a visitor choosing 2 gets the login dialog and the tab stays), a table
// with the yield stated as APR and a live countdown (100 ms) to the real end, the user's held amount, earnings
// and total on tabs 1 and 2, join or add, and the 600 px stake dialog with the exact preview of the rule.

const DAY_MS = 86_400_000;

export default function DefiPage() {
  const { t } = useTranslation();
  const loggedIn = useSession((state) => state.token !== null);
  const [tab, setTab] = useState<ProductTab>(-1);
  const [staking, setStaking] = useState<DefiItem | null>(null);
  const list = useDefiList(tab);
  const total = useDefiTotal();
  const shown = tab === -1 || loggedIn;

  const columns: ColumnsType<DefiItem> = [
    {
      title: t('products.defi.coin'),
      key: 'coin',
      render: (_, item) => (
        <span className="fx-products-coin">
          <ProductLogo src={item.currency_logo} code={item.currency_name} />
          <strong data-testid={`defi-${item.id}-coin`}>{item.currency_name}</strong>
          <Whitepaper href={item.defi_white} />
        </span>
      ),
    },
    { title: t('products.defi.type'), dataIndex: 'type', key: 'type' },
    {
      title: t('products.defi.period'),
      key: 'period',
      render: (_, item) => (
        <span>
          <span data-testid={`defi-${item.id}-days`}>{item.defi_day}</span> {t('products.defi.days')}
        </span>
      ),
    },
    {
      title: t('products.defi.apr'),
      key: 'apr',
      render: (_, item) => (
        <strong className="fx-products-yield">
          <span data-testid={`defi-${item.id}-apr`}>{num(item.defi_earnings)}</span>%
        </strong>
      ),
    },
    {
      title: t('products.defi.remainingCapacity'),
      key: 'remaining',
      align: 'right',
      render: (_, item) => <span data-testid={`defi-${item.id}-remaining`}>{num(item.remaining)}</span>,
    },
    {
      title: t('products.statusLabel'),
      key: 'status',
      render: (_, item) => (
        <span className="fx-products-status-cell">
          <StatusTag status={item.status} testId={`defi-${item.id}-status`} />
          <Countdown endMs={item.end_time} testId={`defi-${item.id}-countdown`} />
        </span>
      ),
    },
  ];
  if (loggedIn && tab !== -1)
    columns.push(
      {
        title: t('products.defi.held'),
        key: 'held',
        align: 'right',
        render: (_, item) => <span data-testid={`defi-${item.id}-held`}>{num(item.defi_number)}</span>,
      },
      {
        title: t('products.defi.earnings'),
        key: 'earnings',
        align: 'right',
        render: (_, item) => <span data-testid={`defi-${item.id}-earnings`}>{num(item.earnings_total)}</span>,
      },
      {
        title: t('products.defi.total'),
        key: 'total',
        align: 'right',
        render: (_, item) => <span data-testid={`defi-${item.id}-total`}>{num(item.total)}</span>,
      },
    );
  if (tab !== 2)
    columns.push({
      title: '',
      key: 'action',
      align: 'right',
      render: (_, item) =>
        item.status === 'open' ? (
          <Button
            type="primary"
            size="small"
            onClick={() => (loggedIn ? setStaking(item) : openLoginDialog())}
            data-testid={`defi-${item.id}-stake`}
          >
            {positive(item.defi_number) ? t('products.defi.add') : t('products.defi.join')}
          </Button>
        ) : null,
    });

  return (
    <ProductFrame
      title={t('products.defi.title')}
      lead={t('products.defi.lead')}
      testId="defi-page"
      header={
        loggedIn ? (
          <>
            <Figure label={t('products.defi.walletTotal')} testId="defi-wallet-total" strong>
              {total.data?.balance == null ? '--' : `${num(total.data.balance)} USDT`}
            </Figure>
            <Figure label={t('products.defi.heldTotal')} testId="defi-held-total" strong>
              {total.data?.total == null ? '--' : `${num(total.data.total)} USDT`}
            </Figure>
            <Figure label={t('products.defi.usd')}>
              ≈{' '}
              <span data-testid="defi-held-usd">
                {total.data?.total == null ? '--' : `$${cutText(total.data.total, 2)}`}
              </span>
            </Figure>
          </>
        ) : null
      }
    >
      <ProductTabs value={tab} onChange={setTab} loggedIn={loggedIn} gated={[1, 2]} testId="defi" />
      <p className="fx-products-banner" data-testid="defi-risk-banner">
        {t('products.risk.defi')} {t('products.defi.detailsHint')}
      </p>
      {!shown ? (
        <LoginPrompt testId="defi-login" />
      ) : list.error ? (
        <Alert type="error" showIcon message={list.error.message} />
      ) : (
        <Table<DefiItem>
          rowKey="id"
          className="fx-products-table"
          loading={list.isLoading || list.isFetching}
          dataSource={list.data?.data ?? []}
          columns={columns}
          pagination={false}
          scroll={{ x: true }}
          locale={{ emptyText: <span data-testid="defi-empty">{t('products.empty')}</span> }}
          expandable={{
            expandedRowRender: (item) => <DefiDetails item={item} tab={tab} />,
            rowExpandable: () => true,
          }}
          data-testid="defi-table"
        />
      )}
      {staking ? <DefiStakeDialog item={staking} onClose={() => setStaking(null)} /> : null}
    </ProductFrame>
  );
}

/** Under a row: the rule, the capacity, the risk note and (tabs 1 and 2) the user's stakes. */
function DefiDetails({ item, tab }: { item: DefiItem; tab: ProductTab }) {
  const { t } = useTranslation();
  return (
    <div className="fx-products-details" data-testid={`defi-${item.id}-details`}>
      <div className="fx-products-figures">
        <Figure label={t('products.defi.capacity')} testId={`defi-${item.id}-capacity`}>
          {num(item.capacity)}
        </Figure>
        <Figure label={t('products.defi.sold')} testId={`defi-${item.id}-sold`}>
          {num(item.sold)}
        </Figure>
        <Figure label={t('products.defi.cap')} testId={`defi-${item.id}-cap`}>
          {item.per_user_cap === null ? t('products.noCap') : num(item.per_user_cap)}
        </Figure>
        <Figure label={t('products.defi.earlyExit')} testId={`defi-${item.id}-early-exit`}>
          {t(`products.defi.exitPolicy.${item.early_exit}`)}
        </Figure>
        <Figure label={t('products.endTime')} testId={`defi-${item.id}-end`}>
          {when(item.end_time)}
        </Figure>
      </div>
      <p className="fx-products-rate-rule">{t('products.defi.rule')}</p>
      <RiskNote
        kind="defi"
        house={item.house}
        ruleText={item.rule_text}
        riskText={item.risk_text}
        testId={`defi-${item.id}-risk`}
      />
      {tab !== -1 && item.stakes.length > 0 ? <StakeTable item={item} /> : null}
    </div>
  );
}

function StakeTable({ item }: { item: DefiItem }) {
  const { t } = useTranslation();
  const message = useMessage();
  const refresh = useProductsRefresh();
  const leave = (stake: DefiStake) =>
    Modal.confirm({
      title: t('products.defi.exitTitle'),
      content: t('products.defi.exitConfirm', { earnings: stake.earnings, currency: item.currency_name }),
      okText: t('products.confirm'),
      cancelText: t('products.cancel'),
      onOk: async () => {
        try {
          const reply = await exitDefi(stake.id);
          void message.success(reply.message);
          await refresh();
        } catch (error) {
          void message.error(error instanceof Error ? error.message : String(error));
        }
      },
    });
  return (
    <Table<DefiStake>
      rowKey="id"
      size="small"
      pagination={false}
      scroll={{ x: true }}
      dataSource={item.stakes}
      data-testid={`defi-${item.id}-stakes`}
      columns={[
        {
          title: t('products.defi.staked'),
          align: 'right',
          render: (_, stake) => <span data-testid={`stake-${stake.id}-number`}>{num(stake.number)}</span>,
        },
        {
          title: t('products.defi.accrued'),
          align: 'right',
          render: (_, stake) => <span data-testid={`stake-${stake.id}-earnings`}>{num(stake.earnings)}</span>,
        },
        {
          title: t('products.defi.daily'),
          align: 'right',
          render: (_, stake) => <span data-testid={`stake-${stake.id}-daily`}>{num(stake.daily)}</span>,
        },
        {
          title: t('products.defi.daysAccrued'),
          render: (_, stake) => (
            <span data-testid={`stake-${stake.id}-days`}>
              {stake.days_accrued} / {stake.defi_day}
            </span>
          ),
        },
        { title: t('products.defi.accrualStart'), render: (_, stake) => when(stake.start_time) },
        { title: t('products.defi.release'), render: (_, stake) => when(stake.end_time) },
        {
          title: t('products.statusLabel'),
          render: (_, stake) => (
            <Tag data-testid={`stake-${stake.id}-state`}>{t(`products.defi.state.${stake.state}`)}</Tag>
          ),
        },
        {
          title: t('products.defi.returned'),
          align: 'right',
          render: (_, stake) => <span data-testid={`stake-${stake.id}-returned`}>{num(stake.returned)}</span>,
        },
        {
          title: '',
          align: 'right',
          render: (_, stake) =>
            stake.state === 'running' && stake.early_exit === 'forfeit' ? (
              <Button size="small" danger onClick={() => leave(stake)} data-testid={`stake-${stake.id}-exit`}>
                {t('products.defi.exit')}
              </Button>
            ) : null,
        },
      ]}
    />
  );
}

/** The start of the UTC day after `nowMs`: where a stake made now starts to accrue ('next_day'). */
export function nextUtcDay(nowMs: number): number {
  return (Math.floor(nowMs / DAY_MS) + 1) * DAY_MS;
}

function DefiStakeDialog({ item, onClose }: { item: DefiItem; onClose: () => void }) {
  const { t } = useTranslation();
  const balance = useDefiBalance(item.defi_coin);
  // Spec 02 section 5: 0 or less (or nothing) shows the message and nothing is sent.
  const {
    number,
    setNumber,
    quantity: coins,
    problem,
    sending,
    submit,
  } = useBuyDialog({
    send: (staked) => buyDefi(item.id, staked.toString()),
    invalid: t('products.defi.enterQuantity'),
    onClose,
  });
  const available = balance.data?.balance.defi_balance ?? null;
  const preview =
    coins === null || available === null
      ? null
      : stakePreview(coins, item.apr_bp, item.defi_day, scaleOf(available));
  const start = nextUtcDay(Date.now());
  const release = start + item.defi_day * DAY_MS;
  const coin = item.currency_name;

  return (
    <Modal
      open
      width={600}
      title={t('products.defi.stakeTitle', { coin })}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t('products.confirm')}
      cancelText={t('products.cancel')}
      confirmLoading={sending}
      okButtonProps={{ 'data-testid': 'defi-stake-confirm' } as Record<string, string>}
      cancelButtonProps={{ 'data-testid': 'defi-stake-cancel' } as Record<string, string>}
      destroyOnHidden
    >
      <div className="fx-products-dialog" data-testid="defi-stake-dialog">
        <div className="fx-products-dialog-row">
          <span>{t('products.defi.coin')}</span>
          <strong>{coin}</strong>
        </div>
        <div className="fx-products-dialog-row">
          <span>{t('products.defi.period')}</span>
          <span>
            {item.defi_day} {t('products.defi.days')}
          </span>
        </div>
        <div className="fx-products-dialog-row">
          <span>{t('products.defi.apr')}</span>
          <span data-testid="defi-stake-apr">{bpPercent(item.apr_bp)}%</span>
        </div>
        <div className="fx-products-dialog-row">
          <span>{t('products.defi.accrualStart')}</span>
          <span>{when(start)}</span>
        </div>
        <div className="fx-products-dialog-row">
          <span>{t('products.defi.estimatedRelease')}</span>
          <span data-testid="defi-stake-release">{when(release)}</span>
        </div>
        <div className="fx-products-dialog-row">
          <span>{t('products.defi.held')}</span>
          <span data-testid="defi-stake-held">
            {num(item.defi_number)} {coin}
          </span>
        </div>
        <label className="fx-products-dialog-label" htmlFor="defi-stake-number">
          {t('products.defi.amount')}
        </label>
        <Input
          id="defi-stake-number"
          value={number}
          inputMode="numeric"
          onChange={(event) => setNumber(digitsOnly(event.target.value))}
          suffix={coin}
          data-testid="defi-stake-number"
        />
        <div className="fx-products-dialog-row">
          <span>{t('products.available', { wallet: t('wallet.names.defi') })}</span>
          <span data-testid="defi-stake-available">
            {available === null ? '--' : `${num(available)} ${coin}`}
          </span>
        </div>
        <div className="fx-products-dialog-row">
          <span>{t('products.defi.daily')}</span>
          <span data-testid="defi-stake-daily">
            {preview === null ? '--' : `${num(preview.daily)} ${coin}`}
          </span>
        </div>
        <div className="fx-products-dialog-row">
          <span>{t('products.defi.periodEarnings')}</span>
          <span data-testid="defi-stake-earnings">
            {preview === null ? '--' : `${num(preview.earnings)} ${coin}`}
          </span>
        </div>
        <div className="fx-products-dialog-row is-strong">
          <span>{t('products.defi.returnsAtEnd')}</span>
          <span data-testid="defi-stake-returned">
            {preview === null ? '--' : `${num(preview.returned)} ${coin}`}
          </span>
        </div>
        <p className="fx-products-dialog-note">
          {t(`products.defi.exitPolicyLong.${item.early_exit}`)} {t('products.defi.rule')}
        </p>
        <RiskNote
          kind="defi"
          house={item.house}
          ruleText={item.rule_text}
          riskText={item.risk_text}
          testId="defi-stake-risk"
        />
        {problem ? <Alert type="error" showIcon message={problem} data-testid="defi-stake-problem" /> : null}
      </div>
    </Modal>
  );
}
