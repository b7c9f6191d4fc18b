import { useTranslation } from 'react-i18next';
import { NEWS_CATEGORY, useNewsList } from '../../data/news.ts';
import { Commitments } from './Commitments.tsx';
import { Faq } from './Faq.tsx';
import { Hero } from './Hero.tsx';
import { useHomeFigures } from '../../data/home.ts';
import { BuiltWith, CustomerCounter, Services, WhyUs } from './HomeSections.tsx';
import { HomeStats } from './HomeStats.tsx';
import { TickerStrip } from './TickerStrip.tsx';
import './home.css';

/**
 * The home page (spec 01 section 1): hero with the news headline, the main pairs, what the exchange is
 * built on, its figures counted from the database, why it is different, its products, its commitments,
 * the customer counter and the FAQ. Content sections (headline, built-with, commitments, FAQ) are stored
 * news items an operator can edit; a section with nothing to show is left out.
 */
export default function HomePage() {
  const { t } = useTranslation();
  const headline = useNewsList(NEWS_CATEGORY.homeNews, { limit: 1 });
  const builtWith = useNewsList(NEWS_CATEGORY.builtWith, { limit: 20 });
  const commitments = useNewsList(NEWS_CATEGORY.commitments, { limit: 20 });
  const faq = useNewsList(NEWS_CATEGORY.faq, { limit: 20, withContent: true });
  const figures = useHomeFigures();

  return (
    <div className="fx-home" data-testid="home">
      <Hero headline={headline.data?.items[0]} />
      <TickerStrip />
      <BuiltWith
        title={builtWith.data?.categoryName ?? t('home.builtWith')}
        items={builtWith.data?.items ?? []}
      />
      <HomeStats figures={figures.data} />
      <WhyUs />
      <Services />
      <Commitments
        title={commitments.data?.categoryName ?? t('home.commitments.title')}
        items={commitments.data?.items ?? []}
      />
      <CustomerCounter figures={figures.data} />
      <Faq title={faq.data?.categoryName ?? t('home.faqTitle')} items={faq.data?.items ?? []} />
    </div>
  );
}
