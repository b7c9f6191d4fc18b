import { useRef, type KeyboardEvent, type ReactNode } from 'react';

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
    const step =
      event.key === 'ArrowRight' || event.key === 'ArrowDown'
        ? 1
        : event.key === 'ArrowLeft' || event.key === 'ArrowUp'
          ? -1
          : 0;
    if (step === 0) return;
    event.preventDefault();
    const at = items.findIndex((item) => item.value === value);
    const next = items[(at + step + items.length) % items.length];
    if (next === undefined) return;
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
