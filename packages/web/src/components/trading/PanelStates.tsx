import type { ReactNode } from 'react';
import './panel-states.css';

// The trading panels' waiting and empty states: a spinner, an empty note and placeholder lines, drawn in
// panel-states.css with antd's tokens (imported here: the P2P and order pages use them without the spot
// page's styles). They stand in for antd's Spin, Empty and Skeleton, which together were as
// much script as the rest of the panels' own code.

export function Spinner({ label, size = 'middle' }: { label: string; size?: 'small' | 'middle' }) {
  return (
    <span
      className={size === 'small' ? 'fx-spinner is-small' : 'fx-spinner'}
      role="status"
      aria-label={label}
    />
  );
}

export function EmptyNote({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <div className={className ? `fx-empty ${className}` : 'fx-empty'}>
      {/* An open, empty tray. */}
      <svg className="fx-empty-image" viewBox="0 0 64 40" aria-hidden="true">
        <ellipse cx="32" cy="34" rx="30" ry="5" className="fx-empty-shadow" />
        <path d="M10 14 L20 4 H44 L54 14 V30 H10 Z" className="fx-empty-tray" />
        <path d="M10 14 H24 A8 5 0 0 0 40 14 H54" className="fx-empty-tray" />
      </svg>
      <div className="fx-empty-text">{children}</div>
    </div>
  );
}

export function PlaceholderLines({ lines, label }: { lines: number; label: string }) {
  return (
    <div className="fx-placeholder" role="status" aria-label={label}>
      {Array.from({ length: lines }, (_, index) => (
        <span key={index} className="fx-placeholder-line" />
      ))}
    </div>
  );
}
