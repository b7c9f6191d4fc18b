import { Alert, Card } from 'antd';
import type { ReactNode } from 'react';
import { Logo } from '../../app/layout/Logo.tsx';
import { LanguagePicker } from '../AdminLayout.tsx';

/** The frame of the console's pages before a session: language (and other) tools, the logo, one card. */
export function AuthFrame({
  testId,
  heading,
  tools,
  children,
  footer,
}: {
  testId: string;
  heading: ReactNode;
  tools?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <div className="fx-admin-login">
      <div className="fx-admin-login-tools">
        <LanguagePicker />
        {tools}
      </div>
      <Card className="fx-admin-login-card" data-testid={testId}>
        <div className="fx-admin-login-brand">
          <Logo height={30} wordColour="currentColor" />
          {heading}
        </div>
        {children}
      </Card>
      {footer}
    </div>
  );
}

/** A form's refusal, in the server's words. */
export function FormError({ message, testId }: { message: string | null; testId: string }) {
  if (message === null) return null;
  return (
    <Alert type="error" showIcon message={message} className="fx-admin-login-alert" data-testid={testId} />
  );
}
