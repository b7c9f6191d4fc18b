import { useId } from 'react';

interface LogoProps {
  /** Height in pixels; the width follows. */
  height?: number;
  /** Colour of the word; the mark keeps its own colours. */
  wordColour?: string;
  /** Show the mark only (narrow screens, favicon-sized places). */
  markOnly?: boolean;
}

/**
 * The Fairex wordmark: a blue tile holding an F whose middle bar turns upward like a rising price
 * line, followed by the name. The name's width is fixed with textLength so the mark lines up the same
 * whichever font the reader's system provides.
 */
export function Logo({ height = 28, wordColour = '#ffffff', markOnly = false }: LogoProps) {
  const gradientId = useId();
  const width = markOnly ? 32 : 110;
  return (
    <svg
      role="img"
      aria-label="Fairex"
      viewBox={`0 0 ${width} 32`}
      height={height}
      width={(height * width) / 32}
      xmlns="http://www.w3.org/2000/svg"
    >
      <defs>
        <linearGradient id={gradientId} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#4c8dff" />
          <stop offset="1" stopColor="#2a55e5" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="8" fill={`url(#${gradientId})`} />
      <path
        d="M11 23.5V9h10.5M11 17h3.5l3-3.5h4"
        fill="none"
        stroke="#fff"
        strokeWidth="3"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      {!markOnly && (
        <text
          x="42"
          y="23.5"
          fill={wordColour}
          fontSize="22"
          fontWeight="700"
          letterSpacing="0.2"
          textLength="66"
          lengthAdjust="spacing"
          fontFamily='-apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Liberation Sans", sans-serif'
        >
          Fairex
        </text>
      )}
    </svg>
  );
}
