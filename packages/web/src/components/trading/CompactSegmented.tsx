import { useRef, type KeyboardEvent, type ReactNode } from 'react';
import { arrowTarget } from './arrow-keys.ts';

// A row of mutually exclusive choices (limit or market, buy or sell orders, the quote currency), drawn as
// antd's Segmented draws it (spot.css, .fx-segmented, with antd's tokens) from a radio group of buttons, so
// that the trading page does not load antd's Segmented and its motion code.

export interface SegmentedOption<Value extends string | number> {
  value: Value;
  label: ReactNode;
}

interface CompactSegmentedProps<Value extends string | number> {
  options: readonly (SegmentedOption<Value> | Value)[];
  value: Value;
  onChange: (value: Value) => void;
  size?: 'small' | 'middle';
  className?: string;
  /** The group's name for assistive technology. */
  label?: string;
}

export function CompactSegmented<Value extends string | number>({
  options,
  value,
  onChange,
  size = 'middle',
  className,
  label,
}: CompactSegmentedProps<Value>) {
  const groupRef = useRef<HTMLDivElement>(null);
  const items = options.map((option) =>
    typeof option === 'object' ? option : { value: option, label: String(option) },
  );
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const target = arrowTarget(
      event.key,
      items.findIndex((item) => item.value === value),
      items.length,
      true,
    );
    const next = target === null ? undefined : items[target];
    if (next === undefined) return;
    event.preventDefault();
    onChange(next.value);
    groupRef.current?.querySelector<HTMLButtonElement>(`[data-value="${String(next.value)}"]`)?.focus();
  };
  const classes = ['fx-segmented', size === 'small' && 'is-small', className].filter(Boolean).join(' ');
  return (
    <div className={classes} role="radiogroup" aria-label={label} ref={groupRef} onKeyDown={onKeyDown}>
      {items.map((item) => {
        const checked = item.value === value;
        return (
          <button
            key={String(item.value)}
            type="button"
            role="radio"
            aria-checked={checked}
            tabIndex={checked ? 0 : -1}
            data-value={String(item.value)}
            className={checked ? 'fx-segmented-item is-selected' : 'fx-segmented-item'}
            onClick={() => onChange(item.value)}
          >
            {item.label}
          </button>
        );
      })}
    </div>
  );
}
