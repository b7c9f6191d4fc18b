import { useTranslation } from 'react-i18next';
import { offsetLabel } from '../format/time-zone.ts';
import { chartOffsetSeconds } from './chart-time.ts';
import { CHART_PERIODS, type ChartPeriod } from './periods.ts';

export interface IntervalBarProps {
  value: ChartPeriod;
  onChange: (period: ChartPeriod) => void;
  /** Intervals to offer; every interval of the specs by default. */
  periods?: readonly ChartPeriod[];
}

/** The row of chart intervals: realtime, 1, 5, 15, 30, 60 min, 1D, 1W, 1M. */
export function IntervalBar({ value, onChange, periods = CHART_PERIODS }: IntervalBarProps) {
  const { t } = useTranslation();
  return (
    <div
      className="fx-interval-bar"
      role="radiogroup"
      aria-label={t('chart.intervals')}
      data-testid="interval-bar"
    >
      {periods.map((period) => (
        <button
          key={period}
          type="button"
          role="radio"
          aria-checked={period === value}
          className={period === value ? 'fx-interval fx-interval-active' : 'fx-interval'}
          data-testid={`interval-${period}`}
          onClick={() => period !== value && onChange(period)}
        >
          {t(`chart.period.${period}`)}
        </button>
      ))}
      <span className="fx-interval-zone" title={t('chart.timeZone')} data-testid="chart-zone">
        {offsetLabel(chartOffsetSeconds() / 60)}
      </span>
    </div>
  );
}
