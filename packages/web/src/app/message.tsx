// The toast messages of the whole app. antd's App component would provide them too, but it also brings its
// modal and notification services, which no screen uses, into every page's first download.
import { createContext, useContext, type ReactNode } from 'react';
import { message } from 'antd';

type MessageApi = ReturnType<typeof message.useMessage>[0];

const MessageContext = createContext<MessageApi | null>(null);

/** Holds the toasts, under the ConfigProvider so that they take the theme and the language. */
export function MessageProvider({ children }: { children: ReactNode }) {
  const [api, holder] = message.useMessage();
  return (
    <MessageContext value={api}>
      {holder}
      {children}
    </MessageContext>
  );
}

/** The toast service of the MessageProvider above. */
export function useMessage(): MessageApi {
  const api = useContext(MessageContext);
  if (api === null) throw new Error('useMessage needs a MessageProvider above it');
  return api;
}
