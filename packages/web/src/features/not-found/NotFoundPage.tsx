import { Link, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Button, Result } from 'antd';

export default function NotFoundPage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <div className="fx-container fx-status-page" data-testid="not-found">
      <Result
        status="404"
        title={<h1 className="fx-status-title">{t('notFound.title')}</h1>}
        subTitle={t('notFound.subtitle', { path: pathname })}
        extra={
          <Link to="/">
            <Button type="primary">{t('notFound.backHome')}</Button>
          </Link>
        }
      />
    </div>
  );
}
