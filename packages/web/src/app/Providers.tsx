import { useMemo, useState, type ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import type { Locale } from 'antd/es/locale/index.js';
import { createQueryClient } from '../data/queries.ts';
import { usePreferences } from './preferences/preferences.ts';
import { buildTheme } from './theme.ts';
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
        <AntApp className="fx-app">{children}</AntApp>
      </ConfigProvider>
    </QueryClientProvider>
  );
}
