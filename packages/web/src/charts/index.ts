// The chart every trading screen uses. Import from here:
//
//   import { PriceChart, type ChartPeriod } from '../../charts/index.ts';
//   <PriceChart symbol="BTC/USDT" height={516} period={period} onPeriodChange={setPeriod} />
//
// See README.md in this folder for the props, the data it fetches and how it stays live.
export { PriceChart, DEFAULT_CHART_HEIGHT, type PriceChartProps } from './PriceChart.tsx';
export { IntervalBar, type IntervalBarProps } from './IntervalBar.tsx';
export {
  CHART_PERIODS,
  DEFAULT_CHART_PERIOD,
  barPeriodOf,
  isChartPeriod,
  type BarPeriod,
  type ChartPeriod,
} from './periods.ts';
export {
  ChartModel,
  type Candle,
  type ChartFactory,
  type ChartLevel,
  type ChartModelOptions,
  type ChartMoment,
  type LegendLabels,
} from './chart-model.ts';
export { startChartFeed, HISTORY_BARS, PULSE_MS, type ChartStatus } from './chart-feed.ts';
export { chartOffsetSeconds, toChartTime, fromChartTime } from './chart-time.ts';
export { buildChartTheme, readChartTheme, type ChartTheme } from './chart-theme.ts';
