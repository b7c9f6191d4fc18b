import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { DiscordOutlined, GithubOutlined, MailOutlined, SendOutlined, XOutlined } from '@ant-design/icons';
import type { ReactNode } from 'react';
import { Logo } from './Logo.tsx';
import { communityLinks, siteContactEmail, type CommunityLink } from '../site.ts';
import type { Messages } from '../../i18n/index.ts';
import { noticePath, useFooterColumns } from '../../data/news.ts';
import { ActivityToast } from '../../features/home/ActivityToast.tsx';
import './footer.css';

type NavKey = keyof Messages['nav'];
type RouteKey = keyof Messages['routes'];

interface FooterColumn {
  headingKey: 'products' | 'earn' | 'support';
  links: ReadonlyArray<{ to: string; nav?: NavKey; route?: RouteKey }>;
}

// The footer's fixed link columns. Further columns come from the news categories 9, 10, 19, 21 and 29
// (spec 01 section 7): their names and items are content the operator edits.
const COLUMNS: readonly FooterColumn[] = [
  {
    headingKey: 'products',
    links: [
      { to: '/market', nav: 'markets' },
      { to: '/dealCenter', nav: 'spot' },
      { to: '/leverdealCenter', nav: 'leverage' },
      { to: '/secondDealCenter', nav: 'seconds' },
    ],
  },
  {
    headingKey: 'earn',
    links: [
      { to: '/ico', nav: 'ico' },
      { to: '/miner', nav: 'mining' },
      { to: '/defi', nav: 'defi' },
    ],
  },
  {
    headingKey: 'support',
    links: [
      { to: '/noticeList', route: 'notices' },
      { to: '/flash', route: 'flash' },
      { to: '/transferLegal', route: 'transfer' },
      { to: '/priceRecord', route: 'priceRecord' },
      { to: '/transparency', route: 'transparency' },
    ],
  },
];

const COMMUNITY_ICONS: Record<CommunityLink['name'], ReactNode> = {
  x: <XOutlined />,
  telegram: <SendOutlined />,
  discord: <DiscordOutlined />,
  github: <GithubOutlined />,
};

export function Footer() {
  const { t } = useTranslation();
  return (
    <footer className="fx-footer" data-testid="footer">
      <div className="fx-container fx-footer-grid fx-footer-grid-news">
        <div className="fx-footer-brand">
          <Logo height={26} />
          <p className="fx-footer-tagline">{t('footer.tagline')}</p>
          {siteContactEmail !== null && (
            <a className="fx-footer-contact" href={`mailto:${siteContactEmail}`}>
              <MailOutlined /> {t('footer.contactEmail')}: {siteContactEmail}
            </a>
          )}
          {communityLinks.length > 0 && (
            <div className="fx-footer-community" aria-label={t('footer.community')}>
              {communityLinks.map((link) => (
                <a
                  key={link.name}
                  href={link.url}
                  target="_blank"
                  rel="noreferrer noopener"
                  aria-label={link.name}
                >
                  {COMMUNITY_ICONS[link.name]}
                </a>
              ))}
            </div>
          )}
        </div>
        {COLUMNS.map((column) => (
          <div key={column.headingKey} className="fx-footer-column">
            <h3>{t(`footer.${column.headingKey}`)}</h3>
            <ul>
              {column.links.map((link) => (
                <li key={link.to}>
                  <Link to={link.to}>
                    {link.nav !== undefined
                      ? t(`nav.${link.nav}`)
                      : link.route !== undefined
                        ? t(`routes.${link.route}`)
                        : ''}
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        ))}
        <NewsColumns />
      </div>
      <div className="fx-container">
        <div className="fx-footer-bottom">
          <p className="fx-footer-risk">{t('footer.riskWarning')}</p>
          <p className="fx-footer-copyright" data-testid="copyright">
            {t('footer.copyright', { year: new Date().getFullYear() })}
          </p>
        </div>
      </div>
      <ActivityToast />
    </footer>
  );
}

/** The columns of the news categories: each item opens its page. Nothing is drawn until they load. */
function NewsColumns() {
  const columns = useFooterColumns();
  return (columns.data ?? []).map((column) => (
    <div key={column.id} className="fx-footer-column" data-testid="footer-news-column">
      <h3>{column.name}</h3>
      <ul>
        {column.items.map((item) => (
          <li key={item.id}>
            <Link to={noticePath(item.id)} data-testid="footer-news-link">
              {item.title}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  ));
}
