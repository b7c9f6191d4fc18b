import { useMemo, useState, type ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { ConfigProvider, theme as antdTheme } from 'antd';
import { MessageProvider } from './message.tsx';
import type { Locale } from 'antd/es/locale/index.js';
import { createQueryClient } from '../data/queries.ts';
import { usePreferences } from './preferences/preferences.ts';
import { APP_THEME_CLASS, buildTheme } from './theme.ts';
import type { Language } from '../i18n/languages.ts';

interface ProvidersProps {
  language: Language;
  antdLocale: Locale;
  children: ReactNode;
}

export function Providers({ language, antdLocale, children }: ProvidersProps) {
  const [queryClient] = useState(createQueryClient);
  const nightMode = usePreferences((state) => state.nightMode);
  const theme = useMemo(() => buildTheme(nightMode, language), [nightMode, language]);
  return (
    <QueryClientProvider client={queryClient}>
      {/* antd would put a space between two CJK characters in a button ("注 册"); the labels are written as meant. */}
      <ConfigProvider locale={antdLocale} theme={theme} button={{ autoInsertSpace: false }}>
        <AppBase>
          <MessageProvider>{children}</MessageProvider>
        </AppBase>
      </ConfigProvider>
    </QueryClientProvider>
  );
}

/** The text of the theme (font, size, line height, colour) for everything inside, as antd's App set it. */
function AppBase({ children }: { children: ReactNode }) {
  const { token } = antdTheme.useToken();
  const style = {
    color: token.colorText,
    fontFamily: token.fontFamily,
    fontSize: token.fontSize,
    lineHeight: token.lineHeight,
  };
  return (
    <div className={`fx-app ${APP_THEME_CLASS}`} style={style}>
      {children}
    </div>
  );
}
