import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { idFromSearch, useNewsDetail } from '../../data/news.ts';
import { NewsArticle } from './NewsArticle.tsx';

/**
 * A notice or any other news page (/components/noticeDetail?id=). The item follows the address: a link
 * to another id inside the content, or the back and forward buttons, load that item in place.
 */
export default function NoticeDetailPage() {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const location = useLocation();
  const id = idFromSearch(searchParams.get('id'));
  const detail = useNewsDetail(id);
  // Back goes where the reader came from; opened directly, it goes to the notice list.
  const onBack = () => void (location.key === 'default' ? navigate('/noticeList') : navigate(-1));
  return <NewsArticle query={id === null ? null : detail} onBack={onBack} testId="notice-detail" />;
}
