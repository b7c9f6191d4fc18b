import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  AuditOutlined,
  CodeOutlined,
  ExportOutlined,
  FieldTimeOutlined,
  GiftOutlined,
  LineChartOutlined,
  NumberOutlined,
  OrderedListOutlined,
  RightOutlined,
  RiseOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';
import type { Messages } from '../../i18n/index.ts';
import type { NewsListItem } from '../../data/news.ts';
import type { HomeFigures } from '../../data/home.ts';

type FeatureText = keyof Messages['home']['features'];
type FeatureKey = 'exact' | 'ledger' | 'book' | 'open';

const FEATURES: ReadonlyArray<{ key: FeatureKey; icon: ReactNode }> = [
  { key: 'exact', icon: <NumberOutlined /> },
  { key: 'ledger', icon: <AuditOutlined /> },
  { key: 'book', icon: <OrderedListOutlined /> },
  { key: 'open', icon: <CodeOutlined /> },
];

/** Why Fairex: four things the exchange does differently, each of which the code can be checked for. */
export function WhyUs() {
  const { t } = useTranslation();
  return (
    <section className="fx-container fx-features" aria-labelledby="fx-features-title">
      <h2 id="fx-features-title" className="fx-section-title">
        {t('home.featuresTitle')}
      </h2>
      <div className="fx-feature-grid">
        {FEATURES.map(({ key, icon }) => (
          <article key={key} className="fx-feature-card">
            <div className="fx-feature-icon">{icon}</div>
            <h3>{t(`home.features.${`${key}Title` satisfies FeatureText}`)}</h3>
            <p>{t(`home.features.${`${key}Body` satisfies FeatureText}`)}</p>
          </article>
        ))}
      </div>
    </section>
  );
}

type ServiceKey = keyof Messages['home']['services']['items'];

const SERVICES: ReadonlyArray<{ key: ServiceKey; to: string; icon: ReactNode }> = [
  { key: 'spot', to: '/dealCenter', icon: <LineChartOutlined /> },
  { key: 'leverage', to: '/leverdealCenter', icon: <RiseOutlined /> },
  { key: 'seconds', to: '/secondDealCenter', icon: <FieldTimeOutlined /> },
  { key: 'earn', to: '/defi', icon: <GiftOutlined /> },
];

/** The products, each with a link to its screen. */
export function Services() {
  const { t } = useTranslation();
  return (
    <section className="fx-home-services" aria-labelledby="fx-home-services-title">
      <div className="fx-container">
        <h2 id="fx-home-services-title" className="fx-section-title">
          {t('home.services.title')}
        </h2>
        <div className="fx-home-services-grid">
          {SERVICES.map(({ key, to, icon }) => {
            const content = (
              <>
                <span className="fx-home-service-icon" aria-hidden="true">
                  {icon}
                </span>
                <span className="fx-home-service-title">{t(`home.services.items.${key}.title`)}</span>
                <span className="fx-home-service-body">{t(`home.services.items.${key}.body`)}</span>
              </>
            );
            return (
              <Link key={key} to={to} className="fx-home-service" data-testid={`service-${key}`}>
                {content}
                <span className="fx-home-service-link">
                  {t('home.services.open')} <RightOutlined />
                </span>
              </Link>
            );
          })}
        </div>
      </div>
    </section>
  );
}

/**
 * The open-source projects the exchange runs on, as links. The template showed "partners"; this product
 * names only what it really depends on, stored as content so an operator can add real partners.
 */
export function BuiltWith({ title, items }: { title: string; items: readonly NewsListItem[] }) {
  const linked = items.filter((item) => item.link !== null);
  if (linked.length === 0) return null;
  return (
    <section className="fx-home-built" aria-label={title} data-testid="built-with">
      <div className="fx-container fx-home-built-inner">
        <span className="fx-home-built-title">{title}</span>
        <ul className="fx-home-built-list">
          {linked.map((item) => (
            <li key={item.id}>
              <a
                href={item.link ?? undefined}
                target="_blank"
                rel="noopener noreferrer"
                title={item.abstract}
              >
                <span className="fx-home-built-name">{item.title}</span>
                <ExportOutlined className="fx-home-built-icon" aria-hidden="true" />
              </a>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

/** The customer counter: how many accounts exist and how many traded today, from the same figures. */
export function CustomerCounter({ figures }: { figures: HomeFigures | undefined }) {
  const { t, i18n } = useTranslation();
  if (figures === undefined) return null;
  const format = new Intl.NumberFormat(i18n.language);
  // A count the server withheld (fewer than its minimum of accounts) reads "fewer than 20".
  const publicFigure = (value: number | null) =>
    value === null
      ? t('home.stats.fewerThan', { min: format.format(figures.minimum) })
      : format.format(value);
  return (
    <section className="fx-home-customers" data-testid="customer-counter">
      <div className="fx-container fx-home-customers-inner">
        <p className="fx-home-customers-text">
          {figures.users === 0
            ? t('home.customers.none')
            : t('home.customers.text', {
                users: publicFigure(figures.users),
                traders: publicFigure(figures.traders24h),
              })}
        </p>
        <Link to="/components/register" className="fx-home-customers-link">
          {t('home.customers.join')} <RightOutlined />
        </Link>
      </div>
    </section>
  );
}
