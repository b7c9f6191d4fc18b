/**
 * The index an arrow key moves to from `at` in a row of `count` choices, wrapping at the ends (left and up
 * go back, right and down go on; up and down only when `vertical` keys count), or null for any other key.
 */
export function arrowTarget(key: string, at: number, count: number, vertical = false): number | null {
  const back = key === 'ArrowLeft' || (vertical && key === 'ArrowUp');
  const on = key === 'ArrowRight' || (vertical && key === 'ArrowDown');
  if ((!back && !on) || count === 0 || at < 0) return null;
  return (at + (on ? 1 : -1) + count) % count;
}
