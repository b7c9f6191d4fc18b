// The 7-point daily mini chart of the home page's ticker strip (spec 01 section 9). The closes are the
// server's decimal strings; turning them into numbers here only places points on a small drawing, it
// computes no amount that anyone reads or pays.

export const SPARKLINE_POINTS = 7;

/**
 * The closes of bars made by this exchange's own trades. Backfilled history (a simulator's, or another
 * exchange's) fills the big chart with a note saying so; the mini chart has no room for that note, so it
 * leaves such bars out and draws only what really traded here.
 */
export function tradedCloses(bars: readonly { close: string; source?: string }[]): string[] {
  return bars.filter((bar) => bar.source === undefined || bar.source === 'trades').map((bar) => bar.close);
}

/** SVG polyline points for the last `SPARKLINE_POINTS` closes, or null with fewer than two. */
export function sparklinePoints(
  closes: readonly string[],
  width: number,
  height: number,
  padding = 2,
): string | null {
  const values = closes
    .slice(-SPARKLINE_POINTS)
    .map(Number)
    .filter((value) => Number.isFinite(value));
  if (values.length < 2) return null;
  const min = Math.min(...values);
  const max = Math.max(...values);
  const span = max - min;
  const stepX = (width - padding * 2) / (values.length - 1);
  return values
    .map((value, index) => {
      const x = padding + index * stepX;
      // A flat week is drawn as a flat line across the middle.
      const y = span === 0 ? height / 2 : padding + (1 - (value - min) / span) * (height - padding * 2);
      return `${x.toFixed(1)},${y.toFixed(1)}`;
    })
    .join(' ');
}
