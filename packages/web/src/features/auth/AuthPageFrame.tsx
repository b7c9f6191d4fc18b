import type { ReactNode } from 'react';
import './auth.css';

/** The frame of the account pages: a centred card on the page background. */
export function AuthPageFrame({
  title,
  subtitle,
  children,
  testId,
}: {
  title: string;
  subtitle?: string;
  children: ReactNode;
  testId: string;
}) {
  return (
    <div className="fx-auth-page" data-testid={testId}>
      <section className="fx-auth-card">
        <h1 className="fx-auth-title">{title}</h1>
        {subtitle !== undefined && <p className="fx-auth-subtitle">{subtitle}</p>}
        {children}
      </section>
    </div>
  );
}
