import { useTranslation } from 'react-i18next';
import { usePriceSource } from '../data/price-source.ts';
import './simulated-prices.css';

/**
 * "Simulated prices (demo)": shown whenever the exchange's price source is the simulator. The layout shows
 * it as a strip under the header on every page (so every page with a price says it); the seconds-contract
 * proof and the price record show it beside what they prove. Nothing while the source is live or unknown.
 */
export function SimulatedPricesBadge({ variant = 'badge' }: { variant?: 'badge' | 'strip' }) {
  const { t } = useTranslation();
  const source = usePriceSource();
  if (source.data?.kind !== 'simulated') return null;
  if (variant === 'strip')
    return (
      <div className="fx-simulated-strip" role="note" data-testid="simulated-prices">
        <span className="fx-simulated-badge">{t('simulated.badge')}</span>
        <span className="fx-simulated-note">{t('simulated.note')}</span>
      </div>
    );
  return (
    <span className="fx-simulated-badge" title={t('simulated.note')} data-testid="simulated-prices-badge">
      {t('simulated.badge')}
    </span>
  );
}

/** For a proof whose own samples say where they came from: the badge when any source is the simulator. */
export function SimulatedBadgeText({ simulated }: { simulated: boolean }) {
  const { t } = useTranslation();
  if (!simulated) return null;
  return (
    <span className="fx-simulated-badge" title={t('simulated.note')} data-testid="simulated-prices-badge">
      {t('simulated.badge')}
    </span>
  );
}
