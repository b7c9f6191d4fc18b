import { Fragment, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Spin } from 'antd';
import { useSession } from '../../data/session.ts';
import type { ProductTab } from '../../data/products.ts';
import { openLoginDialog } from '../auth/auth-dialogs.ts';
import { EmptyList, LoginPrompt, ProductFrame, ProductTabs } from './ProductParts.tsx';

// What the token sale (/ico) and cloud mining (/miner) pages share: the title and lead, the three tabs (all,
// mine, ended) of which the `gated` ones ask a visitor to log in, the list of the tab as cards (loading,
// error, empty), and one buy dialog at a time (a visitor's buy opens the login dialog instead).

/** A page of one product kind's list; `kind` names its texts (`products.<kind>.*`) and test ids. */
export interface ProductListPageProps<Item extends { id: number }> {
  kind: 'ico' | 'miner';
  gated: readonly ProductTab[];
  /** The list of a tab (a react-query hook, called on every render). */
  useList: (tab: ProductTab) => {
    data?: { data: Item[] } | undefined;
    error: Error | null;
    isLoading: boolean;
  };
  card: (item: Item, tab: ProductTab, onBuy: () => void) => ReactNode;
  buyDialog: (item: Item, onClose: () => void) => ReactNode;
}

export function ProductListPage<Item extends { id: number }>({
  kind,
  gated,
  useList,
  card,
  buyDialog,
}: ProductListPageProps<Item>) {
  const { t } = useTranslation();
  const loggedIn = useSession((state) => state.token !== null);
  const [tab, setTab] = useState<ProductTab>(-1);
  const [buying, setBuying] = useState<Item | null>(null);
  const list = useList(tab);
  const shown = tab === -1 || loggedIn;
  const items = list.data?.data ?? [];
  return (
    <ProductFrame
      title={t(`products.${kind}.title`)}
      lead={t(`products.${kind}.lead`)}
      testId={`${kind}-page`}
    >
      <ProductTabs value={tab} onChange={setTab} loggedIn={loggedIn} gated={gated} testId={kind} />
      {!shown ? (
        <LoginPrompt testId={`${kind}-login`} />
      ) : list.error ? (
        <Alert type="error" showIcon message={list.error.message} />
      ) : (
        <Spin spinning={list.isLoading}>
          {items.length === 0 && !list.isLoading ? (
            <EmptyList testId={`${kind}-empty`} />
          ) : (
            <div className="fx-products-cards" data-testid={`${kind}-list`}>
              {items.map((item) => (
                <Fragment key={item.id}>
                  {card(item, tab, () => (loggedIn ? setBuying(item) : openLoginDialog()))}
                </Fragment>
              ))}
            </div>
          )}
        </Spin>
      )}
      {buying ? buyDialog(buying, () => setBuying(null)) : null}
    </ProductFrame>
  );
}
