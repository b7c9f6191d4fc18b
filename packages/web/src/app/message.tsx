// The app's toast messages: a short line at the top of the window that says what just happened and goes
// away by itself, as antd's message service showed them (global.css, .fx-toast, with the theme's tokens).
// It is written here rather than taken from antd because antd's message brings its notification service
// and motion code into every page's first download, for a list of short texts.
import { createContext, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import {
  CheckCircleFilled,
  CloseCircleFilled,
  ExclamationCircleFilled,
  InfoCircleFilled,
} from '@ant-design/icons';

type Kind = 'success' | 'error' | 'warning' | 'info';

export interface MessageApi {
  success: (content: ReactNode, seconds?: number) => Promise<void>;
  error: (content: ReactNode, seconds?: number) => Promise<void>;
  warning: (content: ReactNode, seconds?: number) => Promise<void>;
  info: (content: ReactNode, seconds?: number) => Promise<void>;
  /** A message with a key replaces the shown message of the same key. */
  open: (options: { type: Kind; content: ReactNode; key?: string; duration?: number }) => Promise<void>;
}

interface Toast {
  id: number;
  kind: Kind;
  content: ReactNode;
  key: string | undefined;
}

/** How long a message stays, in seconds, as antd's did. */
export const MESSAGE_SECONDS = 3;

const ICONS: Record<Kind, ReactNode> = {
  success: <CheckCircleFilled />,
  error: <CloseCircleFilled />,
  warning: <ExclamationCircleFilled />,
  info: <InfoCircleFilled />,
};

const MessageContext = createContext<MessageApi | null>(null);

/** Holds the shown messages and draws them above everything else. */
export function MessageProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<readonly Toast[]>([]);
  const nextId = useRef(1);
  const api = useMemo<MessageApi>(() => {
    const show = (kind: Kind, content: ReactNode, seconds = MESSAGE_SECONDS, key?: string) =>
      new Promise<void>((resolve) => {
        const id = nextId.current++;
        setToasts((shown) => [
          ...shown.filter((toast) => key === undefined || toast.key !== key),
          { id, kind, content, key },
        ]);
        setTimeout(() => {
          setToasts((shown) => shown.filter((toast) => toast.id !== id));
          resolve();
        }, seconds * 1000);
      });
    return {
      success: (content, seconds) => show('success', content, seconds),
      error: (content, seconds) => show('error', content, seconds),
      warning: (content, seconds) => show('warning', content, seconds),
      info: (content, seconds) => show('info', content, seconds),
      open: ({ type, content, key, duration }) => show(type, content, duration, key),
    };
  }, []);
  return (
    <MessageContext value={api}>
      {children}
      <div className="fx-toasts" aria-live="polite">
        {toasts.map((toast) => (
          <div
            key={toast.id}
            className={`fx-toast is-${toast.kind}`}
            role={toast.kind === 'error' ? 'alert' : 'status'}
          >
            <span className="fx-toast-icon">{ICONS[toast.kind]}</span>
            <span>{toast.content}</span>
          </div>
        ))}
      </div>
    </MessageContext>
  );
}

/** The toast service of the MessageProvider above. */
export function useMessage(): MessageApi {
  const api = useContext(MessageContext);
  if (api === null) throw new Error('useMessage needs a MessageProvider above it');
  return api;
}
