import { forwardRef, type InputHTMLAttributes, type ReactNode } from 'react';
import { CloseCircleFilled } from '@ant-design/icons';

// A text box with an optional icon before it, a unit after it and a clear button, for the trading panels.
// It draws what antd's Input drew there (spot.css, .fx-input, with antd's tokens in day and night) with a
// plain <input>, so the trading page does not load antd's input, its compact-space and form-status code.

interface CompactInputProps extends Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'size' | 'prefix' | 'onChange'
> {
  value: string;
  onChange: (value: string) => void;
  prefix?: ReactNode;
  suffix?: ReactNode;
  /** Shows a clear button while the box holds text. */
  clearLabel?: string;
  size?: 'small' | 'middle';
}

export const CompactInput = forwardRef<HTMLInputElement, CompactInputProps>(function CompactInput(
  { value, onChange, prefix, suffix, clearLabel, size = 'middle', disabled, className, ...rest },
  ref,
) {
  const classes = ['fx-input', size === 'small' && 'is-small', disabled && 'is-disabled', className]
    .filter(Boolean)
    .join(' ');
  return (
    <span className={classes}>
      {prefix !== undefined && <span className="fx-input-prefix">{prefix}</span>}
      <input
        ref={ref}
        {...rest}
        className="fx-input-box"
        value={value}
        disabled={disabled}
        onChange={(event) => onChange(event.target.value)}
      />
      {clearLabel !== undefined && value !== '' && !disabled && (
        <button type="button" className="fx-input-clear" aria-label={clearLabel} onClick={() => onChange('')}>
          <CloseCircleFilled />
        </button>
      )}
      {suffix !== undefined && <span className="fx-input-suffix">{suffix}</span>}
    </span>
  );
});
