import { useRouteError } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Button, Result } from 'antd';
import { useEffect } from 'react';
import { reloadPage } from '../../app/page-reload.ts';

/** Shown when a screen fails to load or throws while rendering (for example a stale chunk after a deploy). */
export default function RouteErrorPage() {
  const { t } = useTranslation();
  const error = useRouteError();
  useEffect(() => {
    console.error(error);
  }, [error]);
  return (
    <div className="fx-container fx-status-page" data-testid="route-error">
      <Result
        status="error"
        title={<h1 className="fx-status-title">{t('errorPage.title')}</h1>}
        subTitle={t('errorPage.subtitle')}
        extra={
          <Button type="primary" onClick={reloadPage}>
            {t('errorPage.reload')}
          </Button>
        }
      />
    </div>
  );
}
