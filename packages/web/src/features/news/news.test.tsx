import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { Link } from 'react-router';
import NoticeDetailPage from './NoticeDetailPage.tsx';
import NoticeListPage from './NoticeListPage.tsx';
import ItemDetailPage from './ItemDetailPage.tsx';
import { NoticesStrip } from './NoticesStrip.tsx';
import { fakeApi, newsItem, newsList, renderScreens } from './test-support.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const DETAILS: Record<string, { title: string; content: string }> = {
  '1': { title: 'First notice', content: '<p>One <a href="/components/noticeDetail?id=2">next</a></p>' },
  '2': { title: 'Second notice', content: '<p>Two</p>' },
  '3': {
    title: 'Hostile notice',
    content:
      '<p onclick="alert(1)">Safe text</p><script>window.hacked = true</script><img src=x onerror="window.hacked = true">' +
      '<a href="javascript:window.hacked=true">js link</a><svg onload="window.hacked = true"></svg>' +
      '<iframe src="https://evil.example"></iframe><p style="color:red">styled</p>',
  },
};

function detailApi() {
  return fakeApi({
    '/news/detail': (body) => {
      const detail = DETAILS[body.get('id') ?? ''];
      if (detail === undefined) {
        return new Response(
          JSON.stringify({ type: 'error', message: 'This page does not exist or has been removed.' }),
        );
      }
      return { id: Number(body.get('id')), c_id: 3, ...detail, update_time: '2026-03-01T08:30:00.000Z' };
    },
  });
}

describe('notice detail', () => {
  it('shows the title, update time and cleaned content, and reloads when the id changes', async () => {
    const { calls } = detailApi();
    const { router } = renderScreens(
      [
        { path: '/components/noticeDetail', element: <NoticeDetailPage /> },
        { path: '/noticeList', element: <p>list</p> },
      ],
      '/components/noticeDetail?id=1',
    );
    expect((await screen.findByTestId('news-title')).textContent).toBe('First notice');
    expect(screen.getByTestId('news-time').textContent).toMatch(/2026-03-01/);

    // A link inside the content changes only the query: the page loads the other item in place.
    fireEvent.click(screen.getByText('next'));
    await waitFor(() => expect(screen.getByTestId('news-title').textContent).toBe('Second notice'));
    expect(router.state.location.search).toBe('?id=2');
    expect(calls.filter((call) => call.path === '/news/detail').map((call) => call.body.get('id'))).toEqual([
      '1',
      '2',
    ]);

    // Back returns to the first item.
    fireEvent.click(screen.getByTestId('news-back'));
    await waitFor(() => expect(screen.getByTestId('news-title').textContent).toBe('First notice'));
  });

  it('shows stored HTML without scripts, handlers, javascript: links, SVG, frames or styles', async () => {
    detailApi();
    renderScreens(
      [{ path: '/components/noticeDetail', element: <NoticeDetailPage /> }],
      '/components/noticeDetail?id=3',
    );
    const content = await screen.findByTestId('news-content');
    expect(content.textContent).toContain('Safe text');
    expect(content.querySelector('script, svg, iframe, [style], [onclick], [onerror]')).toBeNull();
    expect(content.querySelector('a')?.getAttribute('href')).toBeNull();
    expect((window as unknown as { hacked?: boolean }).hacked).toBeUndefined();
  });

  it('says there is no description for a missing id, and shows the server’s refusal', async () => {
    detailApi();
    renderScreens(
      [{ path: '/components/noticeDetail', element: <NoticeDetailPage /> }],
      '/components/noticeDetail?id=99',
    );
    expect((await screen.findByTestId('news-empty')).textContent).toContain(
      'This page does not exist or has been removed.',
    );
  });

  it('goes to the notice list from back when opened directly', async () => {
    detailApi();
    const { router } = renderScreens(
      [
        { path: '/components/noticeDetail', element: <NoticeDetailPage /> },
        { path: '/noticeList', element: <p>list</p> },
      ],
      '/components/noticeDetail?id=2',
    );
    await screen.findByTestId('news-title');
    fireEvent.click(screen.getByTestId('news-back'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/noticeList'));
  });
});

describe('item detail', () => {
  it('asks /api/detail with type and id and shows the empty-description message without a title', async () => {
    const { calls } = fakeApi({
      '/detail': (body) => ({
        type: body.get('type'),
        id: Number(body.get('id')),
        title: '',
        content: '',
        update_time: null,
      }),
    });
    renderScreens([{ path: '/itemDetail', element: <ItemDetailPage /> }], '/itemDetail?type=currency&id=1');
    expect((await screen.findByTestId('news-empty')).textContent).toContain(
      'There is no description for this item.',
    );
    expect(calls[0]?.body.get('type')).toBe('currency');
  });

  it('closes its window from back', async () => {
    fakeApi({ '/detail': () => ({ id: 2, title: 'Terms', content: '<p>Text</p>' }) });
    const close = vi.spyOn(window, 'close').mockImplementation(() => undefined);
    renderScreens([{ path: '/itemDetail', element: <ItemDetailPage /> }], '/itemDetail?id=2');
    await screen.findByTestId('news-content');
    fireEvent.click(screen.getByTestId('news-back'));
    expect(close).toHaveBeenCalled();
  });
});

describe('notice list', () => {
  it('lists notices with links to their pages', async () => {
    fakeApi({ '/news/list': () => newsList([newsItem(7, 'Maintenance'), newsItem(8, 'New pair')]) });
    renderScreens([{ path: '/noticeList', element: <NoticeListPage /> }], '/noticeList');
    const rows = await screen.findAllByTestId('notice-row');
    expect(rows.map((row) => row.getAttribute('href'))).toEqual([
      '/components/noticeDetail?id=7',
      '/components/noticeDetail?id=8',
    ]);
  });
});

describe('notices strip', () => {
  it('shows the newest notice, then the next in turn, with a link to all', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    fakeApi({ '/news/list': () => newsList([newsItem(1, 'Newest'), newsItem(2, 'Older')]) });
    renderScreens([{ path: '/', element: <NoticesStrip /> }], '/');
    expect((await screen.findByTestId('notices-strip-item')).textContent).toBe('Newest');
    await act(async () => {
      vi.advanceTimersByTime(4_000);
    });
    expect(screen.getByTestId('notices-strip-item').textContent).toBe('Older');
  });

  it('draws nothing when there are no notices', async () => {
    const { fetchMock } = fakeApi({ '/news/list': () => newsList([]) });
    renderScreens(
      [
        {
          path: '/',
          element: (
            <div data-testid="host">
              <NoticesStrip />
              <Link to="/">x</Link>
            </div>
          ),
        },
      ],
      '/',
    );
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    await act(async () => undefined);
    expect(screen.queryByTestId('notices-strip')).toBeNull();
  });
});
