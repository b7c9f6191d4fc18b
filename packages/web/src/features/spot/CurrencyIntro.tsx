import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { fetchCurrencyDetail } from '../../data/spot.ts';
import { PlaceholderLines } from '../../components/trading/PanelStates.tsx';

// The currency introduction (spec 01 section 3, "Currency detail: name, desc") from GET /api/currency/detail.
// The description is plain text from the catalogue; when it cannot be loaded the card says so and invents
// nothing.

export function CurrencyIntro({ currencyId, code }: { currencyId: number; code: string }) {
  const { t } = useTranslation();
  const detail = useQuery({
    queryKey: ['spot', 'currency-detail', currencyId],
    queryFn: ({ signal }) => fetchCurrencyDetail(currencyId, signal),
    staleTime: 10 * 60_000,
    retry: false,
  });
  return (
    <section
      className="fx-spot-panel fx-spot-intro"
      aria-labelledby="fx-spot-intro-title"
      data-testid="currency-intro"
    >
      <header className="fx-spot-panel-head">
        <h2 id="fx-spot-intro-title" className="fx-spot-panel-title">
          {t('spot.intro.title', { code })}
        </h2>
      </header>
      <div className="fx-spot-intro-body">
        {detail.isPending ? (
          <PlaceholderLines lines={3} label={t('spot.loading')} />
        ) : detail.isError ? (
          <p className="fx-spot-muted">{t('spot.intro.unavailable')}</p>
        ) : (
          <>
            <h3 className="fx-spot-intro-name">{detail.data.name}</h3>
            <p className="fx-spot-intro-text">{detail.data.desc || t('spot.intro.empty')}</p>
          </>
        )}
      </div>
    </section>
  );
}
