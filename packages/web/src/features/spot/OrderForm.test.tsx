import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import enUS from 'antd/es/locale/en_US.js';
import { Providers } from '../../app/Providers.tsx';
import { sessionStore } from '../../data/session.ts';
import { authDialogStore } from '../auth/auth-dialogs.ts';
import { OrderForm } from './OrderForm.tsx';
import { testMarket } from '../../components/trading/test-market.ts';

const market = testMarket;
const pair = { legalId: 3, currencyId: 1, legalName: 'USDT', currencyName: 'BTC' };

function renderForm(options: { loggedIn?: boolean; onPlaced?: () => void } = {}) {
  return render(
    <Providers language="en" antdLocale={enUS}>
      <MemoryRouter>
        <OrderForm
          pair={pair}
          market={market}
          loggedIn={options.loggedIn ?? true}
          lastPrice="30000.00"
          quoteAvailable="1000.000000"
          baseAvailable="0.50000000"
          picked={null}
          onPlaced={options.onPlaced ?? (() => undefined)}
        />
      </MemoryRouter>
    </Providers>,
  );
}

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  sessionStore.setState({ token: 'x'.repeat(43) });
});

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStore.setState({ token: null });
});

function half(side: 'buy' | 'sell') {
  return within(screen.getByTestId(`${side}-form`));
}

describe('order form', () => {
  it('starts from the last price and proposes the quantity a slider step allows', () => {
    renderForm();
    expect((screen.getByTestId('buy-price') as HTMLInputElement).value).toBe('30000.00');
    // 1,000 USDT x 50 % / 30,000 = 0.016666... -> 0.0166, rounded down to the quantity step.
    const buySlider = half('buy').getByRole('slider', { name: 'Share of the available balance' });
    expect(buySlider.getAttribute('step')).toBe('25');
    fireEvent.change(buySlider, { target: { value: '50' } });
    expect((screen.getByTestId('buy-amount') as HTMLInputElement).value).toBe('0.0166');
    expect(screen.getByTestId('buy-total').textContent).toBe('498.000000 USDT');
    // The marks under the slider jump to their share.
    fireEvent.click(half('sell').getByRole('button', { name: '100%' }));
    expect((half('sell').getByRole('slider') as HTMLInputElement).value).toBe('100');
    expect((screen.getByTestId('sell-amount') as HTMLInputElement).value).toBe('0.5000');
  });

  it('keeps typed prices and amounts to the market precision', () => {
    renderForm();
    fireEvent.change(screen.getByTestId('buy-price'), { target: { value: '29999.999' } });
    fireEvent.change(screen.getByTestId('buy-amount'), { target: { value: '-1e-5' } });
    expect((screen.getByTestId('buy-price') as HTMLInputElement).value).toBe('29999.99');
    expect((screen.getByTestId('buy-amount') as HTMLInputElement).value).toBe('15');
  });

  it('sends a limit buy and clears the amount after the server accepted it', async () => {
    const onPlaced = vi.fn();
    fetchMock.mockResolvedValue(
      new Response(
        JSON.stringify({
          type: 'ok',
          message: 'Order placed.',
          order: {
            id: 7,
            status: 'resting',
            total_number: '0.0100',
            complete_number: '0.0000',
            number: '0.0100',
          },
        }),
      ),
    );
    renderForm({ onPlaced });
    fireEvent.change(screen.getByTestId('buy-price'), { target: { value: '29000' } });
    fireEvent.change(screen.getByTestId('buy-amount'), { target: { value: '0.01' } });
    fireEvent.click(screen.getByTestId('buy-submit'));
    await waitFor(() => expect(onPlaced).toHaveBeenCalledWith(expect.objectContaining({ id: 7 })));
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toMatch(/^\/api\/transaction\/in\?/);
    expect(String(init.body)).toBe('legal_id=3&currency_id=1&num=0.01&mode=2&price=29000');
    expect((screen.getByTestId('buy-amount') as HTMLInputElement).value).toBe('');
    expect(await screen.findByText('Order placed.')).toBeTruthy();
  });

  it('sends a market sell without a price and shows the latest price instead', async () => {
    fetchMock.mockResolvedValue(
      new Response(
        JSON.stringify({ type: 'error', message: 'Your available balance is not enough for this order.' }),
      ),
    );
    renderForm();
    fireEvent.click(screen.getByTestId('mode-market'));
    const price = screen.getByTestId('sell-price') as HTMLInputElement;
    expect(price.disabled).toBe(true);
    expect(price.value).toBe('30,000.00');
    fireEvent.change(screen.getByTestId('sell-amount'), { target: { value: '0.2' } });
    fireEvent.click(screen.getByTestId('sell-submit'));
    expect(await screen.findByText('Your available balance is not enough for this order.')).toBeTruthy();
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toMatch(/^\/api\/transaction\/out\?/);
    expect(String(init.body)).toBe('legal_id=3&currency_id=1&num=0.2&mode=1');
  });

  it('asks for a price and an amount before sending anything', async () => {
    renderForm();
    fireEvent.change(screen.getByTestId('sell-price'), { target: { value: '' } });
    fireEvent.click(screen.getByTestId('sell-submit'));
    expect(await screen.findByText('Enter a sell price greater than zero.')).toBeTruthy();
    fireEvent.click(screen.getByTestId('buy-submit'));
    expect(await screen.findByText('Enter a buy amount greater than zero.')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('refuses an amount below the lot or the minimum with the market figure, on both sides and modes', async () => {
    renderForm();
    // 0.00001 BTC: the field keeps the market's four places, and the form names the minimum, not zero.
    fireEvent.change(screen.getByTestId('buy-amount'), { target: { value: '0.00001' } });
    fireEvent.click(screen.getByTestId('buy-submit'));
    expect(await screen.findByText('Below the minimum 0.0001 BTC')).toBeTruthy();
    fireEvent.change(screen.getByTestId('sell-amount'), { target: { value: '0' } });
    fireEvent.click(screen.getByTestId('sell-submit'));
    await waitFor(() => expect(screen.getAllByText('Below the minimum 0.0001 BTC')).toHaveLength(2));
    // A limit order worth less than the minimum total (5 USDT at 30,000 is 0.0001666 BTC).
    fireEvent.change(screen.getByTestId('buy-amount'), { target: { value: '0.0001' } });
    fireEvent.click(screen.getByTestId('buy-submit'));
    expect(await screen.findByText('The total is below the minimum 5 USDT')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('offers a visitor log in and sign up, with the slider off', () => {
    renderForm({ loggedIn: false });
    expect(screen.queryByTestId('buy-submit')).toBeNull();
    expect(screen.getByTestId('buy-login').textContent).toBe('Log in');
    expect(screen.getByTestId('sell-register').getAttribute('href')).toBe('/components/register');
    expect((half('buy').getByRole('slider') as HTMLInputElement).disabled).toBe(true);
    expect((half('buy').getByRole('button', { name: '25%' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId('buy-available').textContent).toBe('-- USDT');
    fireEvent.click(screen.getByTestId('buy-login'));
    expect(authDialogStore.getState().open).toBe('login');
    fireEvent.click(screen.getByTestId('sell-register'));
    expect(authDialogStore.getState().open).toBe('register');
  });

  it('sends a limit order with its time in force, and a stop-limit order with its stop price', async () => {
    fetchMock.mockImplementation(
      async () =>
        new Response(
          JSON.stringify({
            type: 'ok',
            message: 'Order placed.',
            order: {
              id: 8,
              status: 'resting',
              total_number: '0.0100',
              complete_number: '0.0000',
              number: '0.0100',
            },
          }),
        ),
    );
    renderForm();
    fireEvent.click(screen.getByTestId('tif-post_only'));
    fireEvent.change(screen.getByTestId('buy-price'), { target: { value: '29000' } });
    fireEvent.change(screen.getByTestId('buy-amount'), { target: { value: '0.01' } });
    fireEvent.click(screen.getByTestId('buy-submit'));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(String((fetchMock.mock.calls[0] as [string, RequestInit])[1].body)).toBe(
      'legal_id=3&currency_id=1&num=0.01&mode=2&price=29000&time_in_force=post_only',
    );
    // Stop-limit: no time in force (gtc only), a stop price, and no sending without one.
    fireEvent.click(screen.getByTestId('mode-stop'));
    expect(screen.queryByTestId('time-in-force')).toBeNull();
    fireEvent.change(screen.getByTestId('sell-price'), { target: { value: '31000' } });
    fireEvent.change(screen.getByTestId('sell-amount'), { target: { value: '0.01' } });
    fireEvent.click(screen.getByTestId('sell-submit'));
    expect(await screen.findByText('Enter a stop price greater than zero.')).toBeTruthy();
    fireEvent.change(screen.getByTestId('sell-stop-price'), { target: { value: '30500.005' } });
    expect((screen.getByTestId('sell-stop-price') as HTMLInputElement).value).toBe('30500.00');
    fireEvent.click(screen.getByTestId('sell-submit'));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    const [url, init] = fetchMock.mock.calls[1] as [string, RequestInit];
    expect(url).toMatch(/^\/api\/transaction\/out\?/);
    expect(String(init.body)).toBe(
      'legal_id=3&currency_id=1&num=0.01&mode=2&price=31000&stop_price=30500.00',
    );
  });

  it('shows the server estimate of a market order, and why it would stop short', async () => {
    fetchMock.mockImplementation(
      async () =>
        new Response(
          JSON.stringify({
            type: 'ok',
            message: {
              side: 'buy',
              symbol: 'BTC/USDT',
              number: '0.0300',
              total: '903.000000',
              average_price: '30100.00',
              worst_price: '30200.00',
              band_price: '31500.00',
              band_percent: '5%',
              fee: '0.00003000',
              fee_currency: 'BTC',
              complete: false,
              stop_reason: 'funds',
            },
          }),
        ),
    );
    renderForm();
    fireEvent.click(screen.getByTestId('mode-market'));
    fireEvent.change(screen.getByTestId('buy-amount'), { target: { value: '0.05' } });
    const estimate = await screen.findByTestId('buy-estimate');
    const [url] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toMatch(/^\/api\/transaction\/estimate\?/);
    const query = new URL(url, 'http://fairex.test').searchParams;
    expect([query.get('side'), query.get('num'), query.get('legal_id'), query.get('currency_id')]).toEqual([
      'buy',
      '0.05',
      '3',
      '1',
    ]);
    expect(screen.getByTestId('buy-total').textContent).toBe('903.000000 USDT');
    expect(estimate.textContent).toContain('30,100.00 USDT');
    expect(estimate.textContent).toContain('30,200.00 USDT');
    expect(estimate.textContent).toContain('31,500.00 USDT (±5%)');
    expect(screen.getByTestId('buy-estimate-note').textContent).toBe(
      'Only partly: your balance runs out first',
    );
  });
});
