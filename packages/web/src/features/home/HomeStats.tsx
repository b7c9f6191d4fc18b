import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { ShopOutlined, SwapOutlined, TeamOutlined } from '@ant-design/icons';
import type { ReactNode } from 'react';
import { countUpValue, useCountUpStep, useSeenOnce } from './count-up.ts';
import type { HomeFigures } from '../../data/home.ts';
import { formatNewsTime } from '../news/format-time.ts';

type FigureKey = 'users' | 'trades24h' | 'markets';

const FIGURES: ReadonlyArray<{ key: FigureKey; icon: ReactNode }> = [
  { key: 'users', icon: <TeamOutlined /> },
  { key: 'trades24h', icon: <SwapOutlined /> },
  { key: 'markets', icon: <ShopOutlined /> },
];

/**
 * Three figures of this exchange, counted by the server from its database, that count up from zero
 * once the section scrolls into view. While the figures load, or if they cannot be loaded, the places
 * show a dash: no number is shown that the server did not report. A figure the server withheld (counted
 * over fewer than its minimum of accounts) says "fewer than 20" instead.
 */
export function HomeStats({ figures }: { figures: HomeFigures | undefined }) {
  const { t, i18n } = useTranslation();
  const section = useRef<HTMLElement>(null);
  const seen = useSeenOnce(section);
  const step = useCountUpStep(seen && figures !== undefined);
  const format = new Intl.NumberFormat(i18n.language);
  const asOf = formatNewsTime(figures?.asOf ?? null);
  const figureText = (shown: HomeFigures | undefined, key: FigureKey): string => {
    if (shown === undefined) return '–';
    const value = shown[key];
    if (value === null) return t('home.stats.fewerThan', { min: format.format(shown.minimum) });
    return format.format(countUpValue(value, step));
  };

  return (
    <section
      ref={section}
      className="fx-home-stats"
      aria-labelledby="fx-home-stats-title"
      data-testid="home-stats"
      data-counting={seen && figures !== undefined ? (step >= 100 ? 'done' : 'running') : 'waiting'}
    >
      <div className="fx-container">
        <h2 id="fx-home-stats-title" className="fx-section-title">
          {t('home.stats.title')}
        </h2>
        <div className="fx-home-stats-grid">
          {FIGURES.map(({ key, icon }) => (
            <div key={key} className="fx-home-stat">
              <span className="fx-home-stat-icon" aria-hidden="true">
                {icon}
              </span>
              <span className="fx-home-stat-value" data-testid={`stat-${key}`}>
                {figureText(figures, key)}
              </span>
              <span className="fx-home-stat-label">{t(`home.stats.${key}`)}</span>
            </div>
          ))}
        </div>
        {asOf !== null && <p className="fx-home-stats-note">{t('home.stats.note', { time: asOf })}</p>}
      </div>
    </section>
  );
}
