import { fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../test/render.tsx';
import { refreshSession } from '../../data/session.ts';
import { closeAuthDialog } from '../auth/auth-dialogs.ts';
import { fakeAccountApi, ok } from '../auth/test-support.tsx';

/** Lazy screens and antd's first render can take a while on a busy machine. */
const SLOW = { timeout: 10_000 };

const USER = {
  id: 3,
  account: '+8613800138000',
  extension_code: 'K7M2QX9P',
  is_seller: 0,
  phone: '13800138000',
  area_code: '86',
  email: null,
  review_status: 0,
  google_bind: 0,
  created_at: '2026-01-01T00:00:00.000Z',
};

function logIn(): void {
  localStorage.setItem('token', 'T'.repeat(43));
  localStorage.setItem('accountNum', USER.account);
  refreshSession();
}

describe('account centre', () => {
  beforeEach(() => {
    localStorage.clear();
    closeAuthDialog();
    logIn();
  });

  afterEach(() => {
    vi.unstubAllGlobals();
    localStorage.clear();
    refreshSession();
  });

  it('shows the security items and the level of spec 01 section 4', async () => {
    fakeAccountApi({ '/user/info': () => ok(USER) });
    renderApp('/accountSet');
    expect((await screen.findByTestId('invite-code-value', {}, SLOW)).textContent).toBe('K7M2QX9P');
    expect(screen.getByTestId('invite-link-value').textContent).toBe(
      `${window.location.origin}/#/components/register?extension_code=K7M2QX9P`,
    );
    expect(screen.getByTestId('security-level').getAttribute('data-level')).toBe('50');
    expect(screen.getByText('Medium')).toBeTruthy();
    expect(screen.getByTestId('item-phone').textContent).toContain('+86 138****8000');
    expect(screen.getByTestId('item-email').textContent).toContain('Not bound');
    expect(screen.getByTestId('real-name-state').textContent).toBe('Not verified');
    fireEvent.click(screen.getByTestId('address-item'));
    expect(await screen.findByText('This feature is not open yet.', {}, SLOW)).toBeTruthy();
  });

  it('shows the real-name form with the reason of a rejection', async () => {
    fakeAccountApi({
      '/user/center': () =>
        ok({
          review_status: 0,
          name: 'Li Si',
          card_id: 'A1****89',
          reject_reason: 'The photo is blurred.',
          submitted_at: null,
          reviewed_at: null,
        }),
    });
    renderApp('/authentication');
    expect((await screen.findByTestId('real-name-rejected', {}, SLOW)).textContent).toContain(
      'The photo is blurred.',
    );
    fireEvent.click(screen.getByTestId('real-name-submit'));
    expect(await screen.findByText('Please enter your name', {}, SLOW)).toBeTruthy();
    expect(screen.getByText('Please enter your ID number')).toBeTruthy();
    expect(screen.getAllByText('Please upload this photo')).toHaveLength(3);
  });

  it.each([
    [1, 'real-name-pending', 'Your verification is under review'],
    [2, 'real-name-approved', 'Your identity is verified'],
  ])('shows review status %i as its result', async (status, testId, title) => {
    fakeAccountApi({
      '/user/center': () =>
        ok({
          review_status: status,
          name: 'Li Si',
          card_id: 'A1****89',
          reject_reason: null,
          submitted_at: null,
          reviewed_at: null,
        }),
    });
    renderApp('/authentication');
    expect((await screen.findByTestId(testId, {}, SLOW)).textContent).toContain(title);
  });
});
