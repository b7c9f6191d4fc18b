import { Link, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Button, Result } from 'antd';
import { ToolOutlined } from '@ant-design/icons';
import type { RouteTitleKey } from '../../app/routes.ts';

/**
 * What a declared route shows while its screen is not built: the screen's name and a plain
 * statement that nothing there works yet. No imitation of the feature, no sample data.
 */
export default function NotAvailablePage({ titleKey }: { titleKey: RouteTitleKey }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <div className="fx-container fx-status-page" data-testid="not-available" data-path={pathname}>
      <Result
        icon={<ToolOutlined className="fx-status-icon" />}
        title={
          <h1 className="fx-status-title">{t('notAvailable.title', { screen: t(`routes.${titleKey}`) })}</h1>
        }
        subTitle={t('notAvailable.subtitle')}
        extra={
          <Link to="/">
            <Button type="primary">{t('notAvailable.backHome')}</Button>
          </Link>
        }
      />
    </div>
  );
}
