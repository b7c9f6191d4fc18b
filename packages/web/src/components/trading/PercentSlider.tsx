import type { CSSProperties } from 'react';

// The order form's slider: a share of the available balance in fixed steps, as a native range input (the
// keyboard, touch and assistive technology work as the platform makes them) with the steps written under it
// as buttons that jump to their share. Drawn in spot.css (.fx-slider) in the side's colour; it replaces
// antd's Slider, whose code was a tenth of the trading page's script.

interface PercentSliderProps {
  value: number;
  onChange: (value: number) => void;
  step: number;
  marks: readonly number[];
  disabled: boolean;
  label: string;
  testId?: string;
}

export function PercentSlider({ value, onChange, step, marks, disabled, label, testId }: PercentSliderProps) {
  const style = { '--fx-slider-value': `${value}%` } as CSSProperties;
  return (
    <div className={disabled ? 'fx-slider is-disabled' : 'fx-slider'} style={style} data-testid={testId}>
      <input
        type="range"
        className="fx-slider-input"
        min={0}
        max={100}
        step={step}
        value={value}
        disabled={disabled}
        aria-label={label}
        aria-valuetext={`${value}%`}
        onChange={(event) => onChange(Number(event.target.value))}
      />
      <div className="fx-slider-marks">
        {marks.map((mark) => (
          <button
            key={mark}
            type="button"
            tabIndex={-1}
            className={mark <= value ? 'fx-slider-mark is-reached' : 'fx-slider-mark'}
            style={{ left: `${mark}%` }}
            disabled={disabled}
            onClick={() => onChange(mark)}
          >
            {mark}%
          </button>
        ))}
      </div>
    </div>
  );
}
