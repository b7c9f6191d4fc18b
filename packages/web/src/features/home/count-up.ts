import { useEffect, useRef, useState, type RefObject } from 'react';

// The statistics count up from zero to the real figure when they come into view (spec 01 section 1:
// 100 steps of 50 ms). The figure itself always comes from the server; only the way there is animated.

export const COUNT_UP_STEPS = 100;
export const COUNT_UP_STEP_MS = 50;

/** The number shown at `step` of the count towards `target`: whole, never above the target. */
export function countUpValue(target: number, step: number, steps = COUNT_UP_STEPS): number {
  if (step >= steps) return target;
  if (step <= 0) return 0;
  return Math.floor((target * step) / steps);
}

/** The step of the count: 0 until `running`, then one more every 50 ms up to 100. */
export function useCountUpStep(running: boolean): number {
  const [step, setStep] = useState(0);
  useEffect(() => {
    if (!running) return;
    const timer = window.setInterval(() => {
      setStep((current) => {
        if (current + 1 >= COUNT_UP_STEPS) window.clearInterval(timer);
        return Math.min(current + 1, COUNT_UP_STEPS);
      });
    }, COUNT_UP_STEP_MS);
    return () => window.clearInterval(timer);
  }, [running]);
  return step;
}

/**
 * True once the element has been at least partly in view (and from then on). Where the browser has no
 * IntersectionObserver, it counts as in view at once, so the figures are never held back.
 */
export function useSeenOnce(ref: RefObject<Element | null>, threshold = 0.35): boolean {
  const [seen, setSeen] = useState(false);
  const seenRef = useRef(false);
  useEffect(() => {
    const element = ref.current;
    if (element === null || seenRef.current) return;
    if (typeof IntersectionObserver === 'undefined') {
      seenRef.current = true;
      setSeen(true);
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          seenRef.current = true;
          setSeen(true);
          observer.disconnect();
        }
      },
      { threshold },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, threshold]);
  return seen;
}
