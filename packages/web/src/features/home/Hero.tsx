import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Button } from 'antd';
import { ArrowRightOutlined, NotificationOutlined, RightOutlined } from '@ant-design/icons';
import { requestLogin, useSession } from '../../data/session.ts';
import { noticePath, type NewsListItem } from '../../data/news.ts';

/**
 * The hero. Its link goes to the account centre when logged in, and otherwise asks the session store
 * for the login dialog, with the account centre as where to go afterwards (spec 01 section 1). Below it
 * the latest home news item is the headline.
 */
export function Hero({ headline }: { headline: NewsListItem | undefined }) {
  const { t } = useTranslation();
  const loggedIn = useSession((state) => state.token !== null);
  return (
    <section className="fx-hero">
      <div className="fx-container fx-hero-inner">
        <div className="fx-hero-copy">
          <span className="fx-hero-eyebrow">{t('home.eyebrow')}</span>
          <h1 className="fx-hero-title">
            <span>{t('home.titleLead')}</span>{' '}
            <span className="fx-hero-emphasis">{t('home.titleEmphasis')}</span>
          </h1>
          <p className="fx-hero-subtitle">{t('home.subtitle')}</p>
          <div className="fx-hero-actions">
            {loggedIn ? (
              <Link to="/accountSet" data-testid="hero-cta">
                <Button type="primary" size="large">
                  {t('home.ctaAccount')} <ArrowRightOutlined />
                </Button>
              </Link>
            ) : (
              <>
                <Button
                  type="primary"
                  size="large"
                  data-testid="hero-cta"
                  onClick={() => requestLogin({ redirect: '/accountSet', reason: 'guard' })}
                >
                  {t('home.ctaLogin')} <ArrowRightOutlined />
                </Button>
                <Link to="/components/register" data-testid="hero-register">
                  <Button size="large" ghost className="fx-hero-secondary">
                    {t('home.ctaRegister')}
                  </Button>
                </Link>
              </>
            )}
            <Link to="/market" data-testid="hero-markets" className="fx-hero-text-link">
              {t('home.ctaMarkets')} <RightOutlined />
            </Link>
          </div>
          {headline !== undefined && (
            <Link to={noticePath(headline.id)} className="fx-hero-headline" data-testid="home-headline">
              <span className="fx-hero-headline-tag">
                <NotificationOutlined aria-hidden="true" /> {t('home.newsLabel')}
              </span>
              <span className="fx-hero-headline-title">{headline.title}</span>
              <RightOutlined className="fx-hero-headline-arrow" aria-hidden="true" />
            </Link>
          )}
        </div>
        <HeroEmblem />
      </div>
    </section>
  );
}

/** Decoration only: the mark inside two rings. It carries no numbers, so it claims nothing. */
function HeroEmblem() {
  return (
    <div className="fx-hero-emblem" aria-hidden="true">
      <svg viewBox="0 0 320 320" xmlns="http://www.w3.org/2000/svg">
        <defs>
          <radialGradient id="fx-hero-glow" cx="50%" cy="50%" r="50%">
            <stop offset="0" stopColor="#2f6bff" stopOpacity="0.45" />
            <stop offset="1" stopColor="#2f6bff" stopOpacity="0" />
          </radialGradient>
          <linearGradient id="fx-hero-tile" x1="0" y1="0" x2="1" y2="1">
            <stop offset="0" stopColor="#4c8dff" />
            <stop offset="1" stopColor="#2a55e5" />
          </linearGradient>
        </defs>
        <circle cx="160" cy="160" r="160" fill="url(#fx-hero-glow)" />
        <circle cx="160" cy="160" r="118" fill="none" stroke="rgba(255,255,255,0.10)" strokeWidth="1.5" />
        <circle
          cx="160"
          cy="160"
          r="86"
          fill="none"
          stroke="rgba(255,255,255,0.16)"
          strokeWidth="1.5"
          strokeDasharray="4 7"
        />
        <circle cx="278" cy="160" r="5" fill="var(--fx-up)" />
        <circle cx="42" cy="160" r="5" fill="var(--fx-down)" />
        <rect x="116" y="116" width="88" height="88" rx="22" fill="url(#fx-hero-tile)" />
        <path
          d="M146.25 180.63V140.75h28.88M146.25 162.75h9.63l8.25-9.63h11"
          fill="none"
          stroke="#fff"
          strokeWidth="8.25"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
    </div>
  );
}
