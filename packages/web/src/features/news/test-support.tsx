import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import enUS from 'antd/es/locale/en_US.js';
import { vi } from 'vitest';
import { Providers } from '../../app/Providers.tsx';

// Test helpers for the news and home screens: a fake /api that answers by path, and a router around
// one screen (no header, footer or socket).

export type ApiHandler = (body: URLSearchParams, url: URL) => unknown;

export function envelope(message: unknown): Response {
  return new Response(JSON.stringify({ type: 'ok', message }), {
    headers: { 'Content-Type': 'application/json' },
  });
}

/** Stubs fetch: `/api<path>` goes to handlers[path], whose return value is the ok envelope's message. */
export function fakeApi(handlers: Record<string, ApiHandler>) {
  const calls: { path: string; body: URLSearchParams }[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const path = url.pathname.replace(/^\/api/, '');
    const body = new URLSearchParams(
      typeof init?.body === 'string' ? init.body : init?.body instanceof URLSearchParams ? init.body : '',
    );
    calls.push({ path, body });
    const handler = handlers[path];
    if (handler === undefined) {
      return new Response(JSON.stringify({ type: 'error', message: 'This address does not exist.' }), {
        status: 404,
      });
    }
    const answer = handler(body, url);
    return answer instanceof Response ? answer : envelope(answer);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}

/** Renders screens at `initialEntry` inside the app's providers, with a memory router. */
export function renderScreens(routes: { path: string; element: ReactNode }[], initialEntry: string) {
  const router = createMemoryRouter(routes as RouteObject[], { initialEntries: [initialEntry] });
  const view = render(
    <Providers language="en" antdLocale={enUS}>
      <RouterProvider router={router} />
    </Providers>,
  );
  return { router, ...view };
}

export function newsItem(
  id: number,
  title: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    id,
    c_id: 3,
    title,
    abstract: `${title} in short`,
    update_time: '2026-03-01T08:30:00.000Z',
    link: null,
    ...extra,
  };
}

export function newsList(items: Record<string, unknown>[], name = 'Notices'): Record<string, unknown> {
  return {
    category: { id: 3, kind: 'notice', name },
    list: items,
    data: items,
    total: items.length,
    current_page: 1,
    last_page: 1,
    per_page: 20,
  };
}
