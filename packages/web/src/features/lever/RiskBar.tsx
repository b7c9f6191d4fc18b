import { useTranslation } from 'react-i18next';
import { NO_VALUE, groupThousands } from '../../format/index.ts';
import { useLeverLossShare, type LeverRisk } from '../../data/lever.ts';
import { riskFill, riskLevel } from './lever-math.ts';

// The account's risk rate against the liquidation threshold (spec 03 section 4): a bar that turns amber
// within the warning margin above the threshold and red at it, with the figures it is computed from; and the
// risk notice quoting the recorded share of lever accounts that lost money over the last 90 days.

export function RiskBar({ risk }: { risk: LeverRisk | null }) {
  const { t } = useTranslation();
  if (risk === null) return null;
  const level = riskLevel(risk.hazard_rate, risk.liquidation_threshold, risk.warning_rate);
  const fill = riskFill(risk.hazard_rate, risk.warning_rate);
  return (
    <section
      className={`fx-spot-panel fx-lever-risk is-${level}`}
      data-testid="lever-risk"
      data-level={level}
    >
      <div className="fx-lever-risk-head">
        <span>{t('lever.risk.title', { legal: risk.legal_name })}</span>
        <strong data-testid="lever-hazard-rate">
          {level === 'none' ? NO_VALUE : `${groupThousands(risk.hazard_rate)} %`}
        </strong>
      </div>
      <div
        className="fx-lever-risk-track"
        role="meter"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={fill}
        aria-label={t('lever.risk.title', { legal: risk.legal_name })}
      >
        <div className="fx-lever-risk-fill" style={{ width: `${fill}%` }} />
      </div>
      <div className="fx-lever-risk-figures fx-spot-muted">
        <span>{t('lever.risk.threshold', { rate: risk.liquidation_threshold })}</span>
        <span>
          {t('lever.risk.margins', {
            amount: groupThousands(risk.origin_caution_money_all),
            legal: risk.legal_name,
          })}
        </span>
        <span>
          {t('lever.risk.profits', { amount: groupThousands(risk.profits_all), legal: risk.legal_name })}
        </span>
        <span>
          {t('lever.risk.balance', { amount: groupThousands(risk.lever_balance), legal: risk.legal_name })}
        </span>
      </div>
      {level === 'warn' || level === 'danger' ? (
        <div className="fx-lever-risk-warning" role="alert" data-testid="lever-risk-warning">
          {t(level === 'danger' ? 'lever.risk.danger' : 'lever.risk.warning', {
            rate: risk.hazard_rate,
            threshold: risk.liquidation_threshold,
          })}
        </div>
      ) : null}
    </section>
  );
}

export function RiskNotice() {
  const { t } = useTranslation();
  const share = useLeverLossShare();
  const data = share.data;
  return (
    <aside className="fx-lever-notice" data-testid="lever-risk-notice">
      <strong>{t('lever.notice.title')}</strong>{' '}
      {data?.below_minimum === true
        ? t('lever.notice.fewAccounts', { days: data.days, min: data.minimum_accounts })
        : data === undefined || data.losing_share === null
          ? t('lever.notice.noRecord', { days: data?.days ?? 90 })
          : t('lever.notice.share', {
              share: data.losing_share,
              days: data.days,
              losing: data.losing_accounts,
              accounts: data.accounts,
            })}{' '}
      {t('lever.notice.body')}
    </aside>
  );
}
