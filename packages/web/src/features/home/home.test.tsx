import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { clearLoginRequest, refreshSession, sessionStore } from '../../data/session.ts';
import { fakeApi, renderScreens } from '../news/test-support.tsx';
import { ActivityToast } from './ActivityToast.tsx';
import { readActivitySummary } from '../../data/activity.ts';
import { readHomeFigures } from '../../data/home.ts';
import { Commitments, CAROUSEL_ADVANCE_MS } from './Commitments.tsx';
import { COUNT_UP_STEPS, COUNT_UP_STEP_MS, countUpValue } from './count-up.ts';
import { Faq } from './Faq.tsx';
import { Hero } from './Hero.tsx';
import { HomeStats } from './HomeStats.tsx';
import { Services } from './HomeSections.tsx';
import { ROUTES } from '../../app/routes.ts';
import enMessages from '../../i18n/locales/en.json';
import { sparklinePoints, tradedCloses } from './sparkline.ts';
import type { NewsListItem } from '../../data/news.ts';

function item(id: number, title: string, extra: Partial<NewsListItem> = {}): NewsListItem {
  return {
    id,
    title,
    abstract: `${title} abstract`,
    updateTime: '2026-03-01T08:30:00.000Z',
    link: null,
    content: null,
    ...extra,
  };
}

beforeEach(() => {
  localStorage.clear();
  refreshSession();
  clearLoginRequest();
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('count-up', () => {
  it('climbs in 100 whole steps to exactly the target, never above it', () => {
    const values = Array.from({ length: COUNT_UP_STEPS + 1 }, (_, step) => countUpValue(862, step));
    expect(values[0]).toBe(0);
    expect(values[COUNT_UP_STEPS]).toBe(862);
    for (let step = 1; step < values.length; step += 1) {
      expect(values[step]).toBeGreaterThanOrEqual(values[step - 1] ?? 0);
      expect(Number.isInteger(values[step])).toBe(true);
    }
    expect(countUpValue(7, 50)).toBe(3);
    expect(countUpValue(0, 50)).toBe(0);
  });

  it('starts only when the figures scroll into view, and ends on the server’s figures', async () => {
    vi.useFakeTimers();
    let reveal: (() => void) | null = null;
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        private readonly callback: IntersectionObserverCallback;
        constructor(callback: IntersectionObserverCallback) {
          this.callback = callback;
        }
        observe() {
          reveal = () =>
            this.callback(
              [{ isIntersecting: true } as IntersectionObserverEntry],
              this as unknown as IntersectionObserver,
            );
        }
        disconnect() {}
      },
    );
    const figures = {
      users: 236,
      trades24h: 2562,
      traders24h: 12,
      markets: 862,
      minimum: 20,
      asOf: '2026-03-01T08:30:00.000Z',
    };
    renderScreens([{ path: '/', element: <HomeStats figures={figures} /> }], '/');
    const users = await vi.waitFor(() => screen.getByTestId('stat-users'), { timeout: 10_000 });
    act(() => vi.advanceTimersByTime(2_000));
    expect(users.textContent).toBe('0');
    expect(screen.getByTestId('home-stats').dataset.counting).toBe('waiting');

    act(() => reveal?.());
    act(() => vi.advanceTimersByTime(COUNT_UP_STEP_MS * 50));
    expect(screen.getByTestId('stat-markets').textContent).toBe('431');
    act(() => vi.advanceTimersByTime(COUNT_UP_STEP_MS * 50));
    expect(users.textContent).toBe('236');
    expect(screen.getByTestId('stat-trades24h').textContent).toBe('2,562');
    expect(screen.getByTestId('stat-markets').textContent).toBe('862');
    expect(screen.getByTestId('home-stats').dataset.counting).toBe('done');
  });

  it('shows a dash, not a number, while the figures are unknown', async () => {
    renderScreens([{ path: '/', element: <HomeStats figures={undefined} /> }], '/');
    expect((await screen.findByTestId('stat-users')).textContent).toBe('–');
  });
});

describe('FAQ', () => {
  it('opens one answer at a time', async () => {
    const items = [
      item(1, 'What is it?', { content: '<p>An exchange.</p>' }),
      item(2, 'Is it open?', { content: '<p>Yes.<script>x()</script></p>' }),
    ];
    renderScreens([{ path: '/', element: <Faq title="FAQ" items={items} /> }], '/');
    const questions = await screen.findAllByTestId('faq-question');
    fireEvent.click(questions[0]!);
    await waitFor(() => expect(screen.getByText('An exchange.')).toBeTruthy());
    fireEvent.click(questions[1]!);
    await waitFor(() => expect(document.querySelectorAll('.ant-collapse-item-active')).toHaveLength(1));
    expect(document.querySelector('.ant-collapse-item-active')?.textContent).toContain('Is it open?');
    expect(document.querySelector('[data-testid="faq"] script')).toBeNull();
  });
});

describe('commitments carousel', () => {
  it('moves on every 1500 ms and loops', async () => {
    vi.useFakeTimers();
    const items = [1, 2, 3, 4, 5].map((id) => item(id, `Promise ${id}`));
    renderScreens([{ path: '/', element: <Commitments title="Our commitments" items={items} /> }], '/');
    const carousel = await vi.waitFor(() => screen.getByTestId('commitments'), { timeout: 10_000 });
    expect(carousel.dataset.start).toBe('0');
    act(() => vi.advanceTimersByTime(CAROUSEL_ADVANCE_MS));
    expect(carousel.dataset.start).toBe('1');
    act(() => vi.advanceTimersByTime(CAROUSEL_ADVANCE_MS * 4));
    expect(carousel.dataset.start).toBe('0');
    expect(screen.getAllByTestId('commitment').map((figure) => figure.textContent)).toEqual([
      'Promise 1 abstractPromise 1',
      'Promise 2 abstractPromise 2',
      'Promise 3 abstractPromise 3',
    ]);
    fireEvent.mouseEnter(carousel);
    act(() => vi.advanceTimersByTime(CAROUSEL_ADVANCE_MS * 3));
    expect(carousel.dataset.start).toBe('0');
  });
});

describe('hero', () => {
  it('asks for the login dialog for a visitor, with the account centre as the way on', async () => {
    renderScreens([{ path: '/', element: <Hero headline={item(4, 'Big news')} /> }], '/');
    fireEvent.click(await screen.findByTestId('hero-cta'));
    expect(sessionStore.getState().loginRequest).toEqual({ redirect: '/accountSet', reason: 'guard' });
    expect(screen.getByTestId('home-headline').getAttribute('href')).toBe('/components/noticeDetail?id=4');
  });

  it('links to the account centre when logged in', async () => {
    localStorage.setItem('token', 'token-1');
    refreshSession();
    renderScreens([{ path: '/', element: <Hero headline={undefined} /> }], '/');
    expect((await screen.findByTestId('hero-cta')).getAttribute('href')).toBe('/accountSet');
    expect(screen.queryByTestId('home-headline')).toBeNull();
  });
});

describe('services', () => {
  it('links every product to its screen', async () => {
    renderScreens([{ path: '/', element: <Services /> }], '/');
    const links = {
      spot: '/dealCenter',
      leverage: '/leverdealCenter',
      seconds: '/secondDealCenter',
      earn: '/defi',
    };
    await screen.findByTestId('service-spot');
    for (const [key, path] of Object.entries(links)) {
      expect(screen.getByTestId(`service-${key}`).getAttribute('href'), key).toBe(path);
      expect(ROUTES.some((route) => route.path === path && route.screen !== undefined)).toBe(true);
    }
  });
});

describe('home figures below the minimum', () => {
  it('reads withheld counts only when the server says so, and shows "fewer than 20"', () => {
    const reply = {
      users: null,
      trades_24h: null,
      traders_24h: null,
      markets: 7,
      minimum_accounts: 20,
      below_minimum: true,
      as_of: '2026-03-01T08:30:00.000Z',
    };
    expect(readHomeFigures(reply)).toMatchObject({ users: null, trades24h: null, markets: 7, minimum: 20 });
    expect(() => readHomeFigures({ ...reply, below_minimum: false })).toThrow();
    renderScreens([{ path: '/', element: <HomeStats figures={readHomeFigures(reply)} /> }], '/');
    expect(screen.getByTestId('stat-users').textContent).toBe('fewer than 20');
    expect(screen.getByTestId('stat-trades24h').textContent).toBe('fewer than 20');
  });
});

describe('home copy', () => {
  it('names in the hero the products the site offers', () => {
    const subtitle = enMessages.home.subtitle;
    expect(subtitle).toMatch(/^Spot trading/);
    expect(subtitle).toMatch(/leveraged contracts/);
    expect(subtitle).toMatch(/seconds contracts/);
    expect(subtitle).not.toMatch(/still being built/);
  });
});

describe('activity figures', () => {
  it("keeps only counts from the reply, never one user's activity", () => {
    expect(
      readActivitySummary({
        window_minutes: 60,
        trades: 12,
        deposits: 3,
        withdrawals: -1,
        list: [{ kind: 'deposit', account: 'ab***@***.com', amount: '12000' }],
      }),
    ).toEqual({ tradesLastHour: 12, tradersLastHour: null, depositsLastHour: 3, withdrawalsLastHour: null });
    expect(readActivitySummary(null)).toEqual({
      tradesLastHour: null,
      tradersLastHour: null,
      depositsLastHour: null,
      withdrawalsLastHour: null,
    });
  });

  it('says "fewer than 20" for a figure the server withheld below its minimum of accounts', async () => {
    fakeApi({
      '/stats/activity': () => ({
        trades: null,
        traders: null,
        deposits: 0,
        withdrawals: 0,
        minimum_accounts: 20,
        below_minimum: true,
      }),
    });
    renderScreens([{ path: '/', element: <ActivityToast /> }], '/');
    const line = await screen.findByTestId('activity-toast');
    expect(line.textContent).toBe('Fairex in the last hourTrades fewer than 20Traders fewer than 20');
    // A null without the server saying it withheld the figure is no figure at all.
    expect(readActivitySummary({ trades: null, minimum_accounts: 20 }).tradesLastHour).toBeNull();
  });

  it("shows the last hour's figures on the home page, with no account or amount in them", async () => {
    fakeApi({
      '/stats/activity': () => ({ trades: 1234, deposits: 3, withdrawals: 0 }),
    });
    renderScreens([{ path: '/', element: <ActivityToast /> }], '/');
    const line = await screen.findByTestId('activity-toast');
    expect(line.textContent).toBe('Fairex in the last hourTrades 1,234Deposits 3');
    expect(screen.queryByTestId('activity-withdrawals')).toBeNull();
  });

  it('shows nothing over any other screen', async () => {
    fakeApi({ '/stats/activity': () => ({ trades: 5 }) });
    renderScreens([{ path: '/dealCenter', element: <ActivityToast /> }], '/dealCenter');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByTestId('activity-toast')).toBeNull();
  });

  it('shows nothing when the hour was quiet', async () => {
    fakeApi({ '/stats/activity': () => ({ trades: 0, deposits: 0 }) });
    renderScreens([{ path: '/', element: <ActivityToast /> }], '/');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByTestId('activity-toast')).toBeNull();
  });
});

describe('mini chart', () => {
  it('draws the last seven closes, and nothing with fewer than two', () => {
    const points = sparklinePoints(['1', '2', '3', '4', '5', '6', '7', '8'], 100, 20, 0);
    expect(points?.split(' ')).toHaveLength(7);
    expect(points?.startsWith('0.0,20.0')).toBe(true);
    expect(points?.endsWith('100.0,0.0')).toBe(true);
    expect(sparklinePoints(['5'], 100, 20)).toBeNull();
    expect(sparklinePoints(['5', '5'], 100, 20, 0)).toBe('0.0,10.0 100.0,10.0');
  });

  it('leaves backfilled history out and draws only days that really traded', () => {
    const bars = [
      { close: '1', source: 'simulated' },
      { close: '2', source: 'binance' },
      { close: '3', source: 'trades' },
      { close: '4' },
    ];
    expect(tradedCloses(bars)).toEqual(['3', '4']);
  });
});
