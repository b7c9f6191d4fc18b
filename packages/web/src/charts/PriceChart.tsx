import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from 'antd';
import { usePreferences } from '../app/preferences/preferences.ts';
import { currentLanguage } from '../i18n/index.ts';
import { LANGUAGE_INFO } from '../i18n/languages.ts';
import { startChartFeed, type ChartStatus } from './chart-feed.ts';
import {
  ChartModel,
  type ChartFactory,
  type ChartLevel,
  type ChartMoment,
  type LegendLabels,
} from './chart-model.ts';
import { readChartTheme } from './chart-theme.ts';
import { IndicatorBar, useChartIndicators } from './IndicatorBar.tsx';
import { IntervalBar } from './IntervalBar.tsx';
import { DEFAULT_CHART_PERIOD, type ChartPeriod } from './periods.ts';
import './chart.css';

export interface PriceChartProps {
  /** The market, as the server names it: "BTC/USDT". */
  symbol: string;
  /** The interval shown. Leave it out to let the chart keep its own (starting at defaultPeriod). */
  period?: ChartPeriod;
  defaultPeriod?: ChartPeriod;
  /** Called when the reader picks another interval in the interval bar. */
  onPeriodChange?: (period: ChartPeriod) => void;
  /** Total height in pixels, interval bar included. */
  height?: number;
  /** The interval bar above the chart (default shown). */
  showIntervalBar?: boolean;
  /** The indicator toggles (MA, EMA, BOLL, VOL, MACD) under the interval bar; shown with the interval bar by default. */
  showIndicatorBar?: boolean;
  className?: string;
  /** Moments marked on the bars that hold them (series markers), e.g. a contract's open and expiry. */
  moments?: readonly ChartMoment[];
  /** Price levels drawn as labelled price lines, e.g. a running contract's open price. */
  levels?: readonly ChartLevel[];
  /**
   * The pair's mark price as the page receives it (pushes, the latest sample): moves the chart's mark line at
   * once instead of at the next catch-up pulse.
   */
  liveMark?: string | null;
  /** Replaces lightweight-charts' createChart; for tests. */
  chartFactory?: ChartFactory;
}

const NO_MOMENTS: readonly ChartMoment[] = [];
const NO_LEVELS: readonly ChartLevel[] = [];

export const DEFAULT_CHART_HEIGHT = 420;

interface StatusState {
  status: ChartStatus;
  message?: string;
}

/**
 * A market's candlestick chart with volume, in Asia/Shanghai time, moving with `kline` pushes. The
 * chart itself is a ChartModel created once per mount; props and preferences are applied to it in
 * place, so a theme, colour or interval change never rebuilds it.
 */
export function PriceChart({
  symbol,
  period: controlledPeriod,
  defaultPeriod = DEFAULT_CHART_PERIOD,
  onPeriodChange,
  height = DEFAULT_CHART_HEIGHT,
  showIntervalBar = true,
  showIndicatorBar = showIntervalBar,
  className,
  moments = NO_MOMENTS,
  levels = NO_LEVELS,
  liveMark,
  chartFactory,
}: PriceChartProps) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const locale = LANGUAGE_INFO[language].locale;
  const nightMode = usePreferences((state) => state.nightMode);
  const redUp = usePreferences((state) => state.priceColours === 'red-up');
  const [ownPeriod, setOwnPeriod] = useState<ChartPeriod>(defaultPeriod);
  const period = controlledPeriod ?? ownPeriod;
  const [state, setState] = useState<StatusState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const hostRef = useRef<HTMLDivElement>(null);
  const legendRef = useRef<HTMLDivElement>(null);
  const modelRef = useRef<ChartModel | null>(null);
  const [indicators, setIndicators] = useChartIndicators();
  const legendLabels: LegendLabels = {
    open: t('chart.legend.open'),
    high: t('chart.legend.high'),
    low: t('chart.legend.low'),
    close: t('chart.legend.close'),
    change: t('chart.legend.change'),
    volume: t('chart.legend.volume'),
    simulated: t('chart.legend.simulated'),
    imported: t('chart.legend.imported'),
    index: t('chart.legend.index'),
    mark: t('chart.legend.mark'),
    markOnly: t('chart.legend.markOnly'),
    bollUpper: t('chart.legend.bollUpper'),
    bollMiddle: t('chart.legend.bollMiddle'),
    bollLower: t('chart.legend.bollLower'),
    macdDif: t('chart.legend.macdDif'),
    macdDea: t('chart.legend.macdDea'),
    macdHistogram: t('chart.legend.macdHistogram'),
  };
  const labelsKey = JSON.stringify(legendLabels);

  // One chart per mount. Under StrictMode React mounts, unmounts and mounts again: the first model is
  // removed completely before the second is made, so no canvas is left behind.
  useEffect(() => {
    const host = hostRef.current;
    if (host === null) return undefined;
    const model = new ChartModel(
      host,
      {
        theme: readChartTheme(document.documentElement, nightMode, redUp),
        locale,
        language,
        period,
        legend: legendRef.current,
        legendLabels,
        indicators,
      },
      chartFactory,
    );
    modelRef.current = model;
    return () => {
      model.remove();
      modelRef.current = null;
    };
    // The chart is made once; the effects below keep it up to date with every prop and preference.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [chartFactory]);

  useEffect(() => {
    modelRef.current?.setTheme(readChartTheme(document.documentElement, nightMode, redUp));
  }, [nightMode, redUp]);

  const indicatorsKey = indicators.join(',');
  useEffect(() => {
    const model = modelRef.current;
    if (model !== null && model.shownIndicators().join(',') !== indicatorsKey) {
      model.setIndicators(indicatorsKey === '' ? [] : (indicatorsKey.split(',') as typeof indicators));
    }
  }, [indicatorsKey]);

  useEffect(() => {
    modelRef.current?.setLocale(locale, language);
  }, [locale, language]);

  useEffect(() => {
    modelRef.current?.setLegendLabels(JSON.parse(labelsKey) as LegendLabels);
  }, [labelsKey]);

  useEffect(() => {
    const model = modelRef.current;
    if (model === null) return undefined;
    return startChartFeed(model, {
      symbol,
      period,
      onStatus: (status, message) => setState(message === undefined ? { status } : { status, message }),
    });
  }, [symbol, period, attempt, chartFactory]);

  useEffect(() => {
    if (liveMark !== null && liveMark !== undefined) modelRef.current?.showLiveMark(liveMark, Date.now());
  }, [liveMark, symbol, period]);

  const marksKey = JSON.stringify([moments, levels]);
  useEffect(() => {
    const [nextMoments, nextLevels] = JSON.parse(marksKey) as [ChartMoment[], ChartLevel[]];
    modelRef.current?.setMarks(nextMoments, nextLevels);
  }, [marksKey, chartFactory]);

  const choosePeriod = (next: ChartPeriod): void => {
    if (controlledPeriod === undefined) setOwnPeriod(next);
    onPeriodChange?.(next);
  };

  return (
    <div
      className={className === undefined ? 'fx-price-chart' : `fx-price-chart ${className}`}
      style={{ height }}
      data-testid="price-chart"
      data-symbol={symbol}
      data-period={period}
      data-status={state.status}
      data-indicators={indicatorsKey}
    >
      {showIntervalBar && <IntervalBar value={period} onChange={choosePeriod} />}
      {showIndicatorBar && <IndicatorBar value={indicators} onChange={setIndicators} />}
      <div className="fx-chart-body">
        <div ref={hostRef} className="fx-chart-host" role="img" aria-label={t('chart.label', { symbol })} />
        <div ref={legendRef} className="fx-chart-legend" data-testid="chart-legend" />
        {state.status !== 'ready' && (
          <div className="fx-chart-overlay" data-testid="chart-status">
            {state.status === 'loading' && t('chart.loading')}
            {state.status === 'empty' && t('chart.empty')}
            {state.status === 'error' && (
              <>
                <span>{state.message ?? t('chart.error')}</span>
                <Button size="small" onClick={() => setAttempt((count) => count + 1)}>
                  {t('chart.retry')}
                </Button>
              </>
            )}
          </div>
        )}
      </div>
    </div>
  );
}
