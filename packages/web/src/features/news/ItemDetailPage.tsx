import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { idFromSearch, useItemDetail, type ItemDetailType } from '../../data/news.ts';
import { NewsArticle } from './NewsArticle.tsx';

/**
 * The item detail page (/itemDetail?type=news|currency&id=): a news item or a currency's description.
 * It is opened in a window of its own, so back closes that window (spec 02 section 2.10); when the
 * browser keeps the window open (it was not opened by a script), back goes to the previous page.
 */
export default function ItemDetailPage() {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const location = useLocation();
  const type: ItemDetailType = searchParams.get('type') === 'currency' ? 'currency' : 'news';
  const id = idFromSearch(searchParams.get('id'));
  const detail = useItemDetail(type, id);
  const onBack = () => {
    window.close();
    // window.close() is ignored for a window the reader opened; then this runs.
    window.setTimeout(() => void (location.key === 'default' ? navigate('/') : navigate(-1)), 100);
  };
  return <NewsArticle query={id === null ? null : detail} onBack={onBack} testId="item-detail" />;
}
