import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import en from '../../i18n/locales/en.json';
import { renderApp } from '../../test/render.tsx';
import { RECORD_PATHS, SUCCESS_KINDS, successKind } from './success-kinds.ts';

describe('success page', () => {
  it('says what worked for a known action and links to its records, the assets and home', async () => {
    renderApp('/success?what=withdrawal');
    const page = await screen.findByTestId('success-page');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Withdrawal submitted');
    expect(page.textContent).toContain(en.success.description.withdrawal);
    expect(screen.getByTestId('success-record').getAttribute('href')).toBe('/chargeRecord?tab=withdrawals');
    expect(screen.getByTestId('success-record').textContent).toBe('Withdrawal records');
    expect(screen.getByTestId('success-assets').getAttribute('href')).toBe('/new_account');
    expect(screen.getByTestId('success-home').getAttribute('href')).toBe('/');
    await waitFor(() => expect(document.title).toBe('Done · Fairex'));
  });

  it('says a generic "Done" without a record link when the action is missing', async () => {
    renderApp('/success');
    const page = await screen.findByTestId('success-page');
    expect(page.getAttribute('data-kind')).toBe('done');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Done');
    expect(screen.queryByTestId('success-record')).toBeNull();
    expect(screen.getByTestId('success-assets').getAttribute('href')).toBe('/new_account');
  });

  it('never puts an unknown action from the address on the page', async () => {
    const what = '<b>Hacked</b> send funds to 1xyz';
    renderApp(`/success?what=${encodeURIComponent(what)}`);
    const page = await screen.findByTestId('success-page');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Done');
    expect(page.textContent).not.toContain('Hacked');
    expect(page.textContent).not.toContain('1xyz');
    expect(page.querySelector('b')).toBeNull();
  });

  it('reads only the keys of its fixed list, each with texts and a record page', () => {
    for (const kind of SUCCESS_KINDS) {
      expect(successKind(kind)).toBe(kind);
      expect(en.success.title[kind]).toBeTruthy();
      expect(en.success.description[kind]).toBeTruthy();
      expect(en.success.record[kind]).toBeTruthy();
      expect(RECORD_PATHS[kind].startsWith('/')).toBe(true);
    }
    expect(successKind(null)).toBeNull();
    expect(successKind('toString')).toBeNull();
    expect(successKind('done')).toBeNull();
  });
});
