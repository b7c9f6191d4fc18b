import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { readStored, writeStored } from '../data/storage.ts';
import { INDICATORS, parseIndicators, serialiseIndicators, type Indicator } from './indicators.ts';

/** Indicators a first visit sees: the volume bars, as before indicators existed. */
export const DEFAULT_INDICATORS: readonly Indicator[] = ['vol'];

/** The reader's chosen indicators, kept as a display preference (it survives a logout). */
export function useChartIndicators(): [Indicator[], (next: Indicator[]) => void] {
  const [chosen, setChosen] = useState<Indicator[]>(() =>
    parseIndicators(readStored('chart_indicators'), DEFAULT_INDICATORS),
  );
  const choose = (next: Indicator[]) => {
    setChosen(next);
    writeStored('chart_indicators', serialiseIndicators(next));
  };
  return [chosen, choose];
}

export interface IndicatorBarProps {
  value: readonly Indicator[];
  onChange: (next: Indicator[]) => void;
}

/** The indicator toggles under the interval bar: MA, EMA, BOLL, VOL, MACD, each on or off. */
export function IndicatorBar({ value, onChange }: IndicatorBarProps) {
  const { t } = useTranslation();
  const toggle = (indicator: Indicator) =>
    onChange(
      value.includes(indicator)
        ? value.filter((item) => item !== indicator)
        : INDICATORS.filter((item) => item === indicator || value.includes(item)),
    );
  return (
    <div
      className="fx-indicator-bar"
      role="group"
      aria-label={t('chart.indicators')}
      data-testid="indicator-bar"
    >
      <span className="fx-indicator-title">{t('chart.indicators')}</span>
      {INDICATORS.map((indicator) => (
        <button
          key={indicator}
          type="button"
          aria-pressed={value.includes(indicator)}
          title={t(`chart.indicator.${indicator}`)}
          className={value.includes(indicator) ? 'fx-interval fx-interval-active' : 'fx-interval'}
          data-testid={`indicator-${indicator}`}
          onClick={() => toggle(indicator)}
        >
          {indicator.toUpperCase()}
        </button>
      ))}
    </div>
  );
}
