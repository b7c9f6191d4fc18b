import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Button, Result } from 'antd';
import { RECORD_PATHS, successKind } from './success-kinds.ts';

/**
 * The page a trader lands on after a completed action (/success?what=<kind>): a translated title and
 * description chosen by the known kind, or the generic "Done", and the ways on: the action's record page,
 * the assets and the home page.
 */
export default function SuccessPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const kind = successKind(params.get('what'));
  const text = kind ?? 'done';
  const actions = [
    ...(kind === null
      ? []
      : [
          <Link key="record" to={RECORD_PATHS[kind]} data-testid="success-record">
            <Button type="primary">{t(`success.record.${kind}`)}</Button>
          </Link>,
        ]),
    <Link key="assets" to="/new_account" data-testid="success-assets">
      <Button type={kind === null ? 'primary' : 'default'}>{t('success.assets')}</Button>
    </Link>,
    <Link key="home" to="/" data-testid="success-home">
      <Button>{t('success.home')}</Button>
    </Link>,
  ];
  return (
    <div className="fx-container fx-status-page" data-testid="success-page" data-kind={text}>
      <Result
        status="success"
        title={<h1 className="fx-status-title">{t(`success.title.${text}`)}</h1>}
        subTitle={t(`success.description.${text}`)}
        extra={actions}
      />
    </div>
  );
}
