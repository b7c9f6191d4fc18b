import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Empty, Tag } from 'antd';
import { SafetyCertificateOutlined, WarningOutlined } from '@ant-design/icons';
import type { HouseAccountView, ProductStatus } from '@fairex/shared';
import { displayTimeZone } from '../../app/preferences/preferences.ts';
import { dateTimeIn } from '../../format/time-zone.ts';
import { NO_VALUE, groupThousands, readDecimal } from '../../format/index.ts';
import type { ProductTab } from '../../data/products.ts';
import { openLoginDialog } from '../auth/auth-dialogs.ts';
import { countdownText, remaining } from './product-math.ts';
import './products.css';

// The parts the ICO, miner and defi screens share: the frame, the -1/1/2 tabs with their login prompts, a
// labelled figure, the risk note every product carries, the countdown and the logo.

/** The frame of a product screen: title, a short line under it, optional header figures, the page. */
export function ProductFrame({
  title,
  lead,
  testId,
  header,
  children,
}: {
  title: string;
  lead: string;
  testId: string;
  header?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="fx-products" data-testid={testId}>
      <div className="fx-products-head">
        <div>
          <h1 className="fx-products-title">{title}</h1>
          <p className="fx-products-lead">{lead}</p>
        </div>
        {header ? <div className="fx-products-header-figures">{header}</div> : null}
      </div>
      {children}
    </div>
  );
}

const TABS: readonly ProductTab[] = [-1, 1, 2];

/**
 * The list tabs: -1 all, 1 mine, 2 ended (spec 02 sections 2.6-2.8). A visitor choosing a tab in `gated` gets
 * the login dialog and the tab does not change (spec 02 section 4).
 */
export function ProductTabs({
  value,
  onChange,
  loggedIn,
  gated,
  testId,
}: {
  value: ProductTab;
  onChange: (tab: ProductTab) => void;
  loggedIn: boolean;
  gated: readonly ProductTab[];
  testId: string;
}) {
  const { t } = useTranslation();
  const label = (tab: ProductTab) =>
    tab === -1 ? t('products.tabAll') : tab === 1 ? t('products.tabMine') : t('products.tabEnded');
  return (
    <div className="fx-products-tabs" role="tablist" aria-label={t('products.tabsLabel')}>
      {TABS.map((tab) => (
        <button
          key={tab}
          type="button"
          role="tab"
          aria-selected={tab === value}
          className={tab === value ? 'fx-products-tab is-active' : 'fx-products-tab'}
          data-testid={`${testId}-tab-${tab}`}
          onClick={() => {
            if (!loggedIn && gated.includes(tab)) {
              openLoginDialog();
              return;
            }
            onChange(tab);
          }}
        >
          {label(tab)}
        </button>
      ))}
    </div>
  );
}

/** A figure: label over value; the value carries the test id the number checks read. */
export function Figure({
  label,
  children,
  testId,
  strong = false,
}: {
  label: string;
  children: ReactNode;
  testId?: string;
  strong?: boolean;
}) {
  return (
    <div className="fx-products-figure">
      <div className="fx-products-figure-label">{label}</div>
      <div className={strong ? 'fx-products-figure-value is-strong' : 'fx-products-figure-value'}>
        <span data-testid={testId}>{children}</span>
      </div>
    </div>
  );
}

/** An amount as the server sent it, grouped by thousands; the missing value for junk. */
export function num(text: string | null | undefined): string {
  return readDecimal(text) === null ? NO_VALUE : groupThousands(text as string);
}

/** An instant (ms) in the display time zone. */
export function when(timeMs: number | null | undefined): string {
  return typeof timeMs === 'number' && Number.isFinite(timeMs) && timeMs > 0
    ? dateTimeIn(displayTimeZone(), timeMs)
    : NO_VALUE;
}

/** The product's status as a tag. */
export function StatusTag({ status, testId }: { status: ProductStatus; testId?: string }) {
  const { t } = useTranslation();
  const color = status === 'open' ? 'green' : status === 'draft' ? 'default' : 'red';
  return (
    <Tag color={color} data-testid={testId}>
      {t(`products.status.${status}`)}
    </Tag>
  );
}

/**
 * The risk note every product carries: it is not a deposit and the principal is not guaranteed, who pays the
 * yield (the exchange's house account, with what it holds for the product now), and the server's own rule
 * and risk texts for this product.
 */
export function RiskNote({
  house,
  ruleText,
  riskText,
  kind,
  testId,
}: {
  house: HouseAccountView;
  ruleText: string;
  riskText: string;
  kind: 'ico' | 'miner' | 'defi';
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <div className="fx-products-risk" data-testid={testId}>
      <div className="fx-products-risk-title">
        <WarningOutlined /> {t('products.riskTitle')}
      </div>
      <p>{t(`products.risk.${kind}`)}</p>
      <p>
        <SafetyCertificateOutlined />{' '}
        {t(kind === 'ico' ? 'products.houseHoldsTokens' : 'products.housePays', {
          wallet: t(`wallet.names.${house.wallet}`),
          reserved: num(house.reserved),
          currency: house.currency_name,
        })}
      </p>
      {ruleText.trim() !== '' ? <p className="fx-products-rule">{ruleText}</p> : null}
      {riskText.trim() !== '' ? <p className="fx-products-rule">{riskText}</p> : null}
    </div>
  );
}

/** A live countdown to an end, refreshed every 100 ms (spec 02 section 9). */
export function Countdown({ endMs, testId }: { endMs: number; testId?: string }) {
  const { t } = useTranslation();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 100);
    return () => clearInterval(timer);
  }, []);
  const left = remaining(endMs, now);
  return (
    <span className="fx-products-countdown" data-testid={testId}>
      {left.over ? t('products.countdownOver') : countdownText(left, t('products.dayUnit'))}
    </span>
  );
}

/** A product's logo, or its code's first letter when it has none (or the image fails). */
export function ProductLogo({ src, code }: { src: string; code: string }) {
  const [failed, setFailed] = useState(false);
  if (src.trim() === '' || failed)
    return (
      <span className="fx-products-logo fx-products-logo-letter" aria-hidden>
        {code.slice(0, 1)}
      </span>
    );
  return <img className="fx-products-logo" src={src} alt="" onError={() => setFailed(true)} />;
}

/** The whitepaper link, when the product has one. */
export function Whitepaper({ href }: { href: string }) {
  const { t } = useTranslation();
  if (!/^https?:\/\//i.test(href.trim())) return null;
  return (
    <a className="fx-products-white" href={href} target="_blank" rel="noopener noreferrer">
      {t('products.whitepaper')}
    </a>
  );
}

/** Shown in a list for a visitor on a tab that needs an account. */
export function LoginPrompt({ testId }: { testId: string }) {
  const { t } = useTranslation();
  return (
    <div className="fx-products-empty">
      <Empty description={t('products.loginToSee')} image={Empty.PRESENTED_IMAGE_SIMPLE} />
      <Button type="primary" onClick={() => openLoginDialog()} data-testid={testId}>
        {t('products.login')}
      </Button>
    </div>
  );
}

export function EmptyList({ testId }: { testId: string }) {
  const { t } = useTranslation();
  return (
    <div className="fx-products-empty" data-testid={testId}>
      <Empty description={t('products.empty')} image={Empty.PRESENTED_IMAGE_SIMPLE} />
    </div>
  );
}
