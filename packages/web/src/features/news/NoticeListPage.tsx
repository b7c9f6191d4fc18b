import { useSearchParams, Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Button, Empty, Pagination, Result, Skeleton } from 'antd';
import { RightOutlined } from '@ant-design/icons';
import { NEWS_CATEGORY, idFromSearch, noticePath, useNewsList } from '../../data/news.ts';
import { formatNewsTime } from './format-time.ts';
import './news.css';

const PER_PAGE = 10;

/** The notice list (/noticeList): the exchange's notices, newest first, ten to a page. */
export default function NoticeListPage() {
  const { t } = useTranslation();
  const [searchParams, setSearchParams] = useSearchParams();
  const page = idFromSearch(searchParams.get('page')) ?? 1;
  const list = useNewsList(NEWS_CATEGORY.notices, { page, limit: PER_PAGE });

  return (
    <div className="fx-news-page" data-testid="notice-list">
      <div className="fx-container fx-news-narrow">
        <header className="fx-news-head">
          <h1 className="fx-news-title">{list.data?.categoryName ?? t('news.noticesTitle')}</h1>
          <p className="fx-news-subtitle">{t('news.noticesSubtitle')}</p>
        </header>
        <section className="fx-news-card">
          {list.isPending ? (
            <Skeleton active paragraph={{ rows: 6 }} />
          ) : list.isError ? (
            <Result
              status="warning"
              title={t('news.loadFailed')}
              subTitle={list.error.message}
              extra={
                <Button type="primary" onClick={() => void list.refetch()}>
                  {t('news.retry')}
                </Button>
              }
            />
          ) : list.data.items.length === 0 ? (
            <Empty description={t('news.empty')} />
          ) : (
            <ul className="fx-news-list">
              {list.data.items.map((item) => (
                <li key={item.id}>
                  <Link to={noticePath(item.id)} className="fx-news-row" data-testid="notice-row">
                    <span className="fx-news-row-text">
                      <span className="fx-news-row-title">{item.title}</span>
                      {item.abstract !== '' && <span className="fx-news-row-abstract">{item.abstract}</span>}
                    </span>
                    <span className="fx-news-row-time">{formatNewsTime(item.updateTime)}</span>
                    <RightOutlined className="fx-news-row-arrow" aria-hidden="true" />
                  </Link>
                </li>
              ))}
            </ul>
          )}
          {list.data !== undefined && list.data.total > PER_PAGE && (
            <Pagination
              className="fx-news-pagination"
              current={page}
              pageSize={PER_PAGE}
              total={list.data.total}
              showSizeChanger={false}
              onChange={(next) => setSearchParams(next === 1 ? {} : { page: String(next) })}
            />
          )}
        </section>
      </div>
    </div>
  );
}
