import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Empty, Skeleton } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import type { UseQueryResult } from '@tanstack/react-query';
import type { NewsDetail } from '../../data/news.ts';
import { formatNewsTime } from './format-time.ts';
import { SafeHtml } from './SafeHtml.tsx';
import './news.css';
import { useMessage } from '../../app/message.tsx';

export interface NewsArticleProps {
  /** The item, or null when the address names none (no id, or not a number). */
  query: UseQueryResult<NewsDetail, Error> | null;
  onBack: () => void;
  testId: string;
}

/**
 * A news item or item description: back action, title, update time and the HTML content, cleaned in
 * the browser before it is shown (spec 01 section 2, spec 02 section 2.10). Without a title the page
 * says there is no description; a refusal from the server is shown as a message (spec 02 section 8).
 */
export function NewsArticle({ query, onBack, testId }: NewsArticleProps) {
  const { t } = useTranslation();
  const message = useMessage();
  const failure = query?.isError ? query.error.message : null;

  useEffect(() => {
    if (failure !== null) void message.open({ type: 'error', content: failure, key: 'news-detail-error' });
  }, [failure, message]);

  const detail = query?.data;
  const updated = formatNewsTime(detail?.updateTime ?? null);
  return (
    <div className="fx-news-page" data-testid={testId}>
      <div className="fx-container fx-news-narrow">
        <Button
          type="text"
          icon={<ArrowLeftOutlined />}
          onClick={onBack}
          className="fx-news-back"
          data-testid="news-back"
        >
          {t('news.back')}
        </Button>
        <article className="fx-news-card fx-news-article">
          {query?.isPending ? (
            <Skeleton active title paragraph={{ rows: 8 }} />
          ) : detail === undefined || detail.title === '' ? (
            <Empty
              className="fx-news-empty"
              description={failure ?? t('news.noDescription')}
              data-testid="news-empty"
            />
          ) : (
            <>
              <h1 className="fx-news-article-title" data-testid="news-title">
                {detail.title}
              </h1>
              {updated !== null && (
                <p className="fx-news-article-time" data-testid="news-time">
                  {t('news.updated', { time: updated })}
                </p>
              )}
              {detail.content === '' ? (
                <p className="fx-news-article-none">{t('news.noDescription')}</p>
              ) : (
                <SafeHtml html={detail.content} className="fx-news-content" testId="news-content" />
              )}
            </>
          )}
        </article>
      </div>
    </div>
  );
}
