// Payout adapters: how an approved withdrawal leaves. The custody adapter hands it to the custody
// provider's withdrawal API (uDun's /mch/withdraw); the provider later reports the chain outcome through a
// tradeType 2 callback. The sandbox adapter sends nothing anywhere: the withdrawal waits for a signed
// callback or an administrator's confirmation, exactly as a custody payout waits for the provider.
import { formatDecimal } from '@fairex/shared';
import { signedEnvelope } from './protocol.ts';

export interface PayoutRequest {
  withdrawalId: number;
  address: string;
  /** What reaches the address (the held amount less the fee), in the currency's minor units. */
  payoutAmount: bigint;
  scale: number;
  mainCoinType: number;
  coinType: string;
}

/**
 * accepted: the provider took the payout. refused: it said no (nothing was sent). uncertain: no clear
 * answer (a timeout, a broken reply); the provider may or may not have taken it, and resending with the same
 * business id is how the operator settles it.
 */
export type PayoutResult =
  { status: 'accepted' } | { status: 'refused'; reason: string } | { status: 'uncertain'; reason: string };

export interface PayoutAdapter {
  readonly name: 'custody' | 'sandbox';
  send(request: PayoutRequest): Promise<PayoutResult>;
}

export class SandboxPayout implements PayoutAdapter {
  readonly name = 'sandbox';

  async send(): Promise<PayoutResult> {
    return { status: 'accepted' };
  }
}

export interface CustodyPayoutOptions {
  apiUrl: string;
  merchantId: string;
  apiKey: string;
  callbackUrl: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
  clock?: () => number;
}

export class CustodyPayout implements PayoutAdapter {
  readonly name = 'custody';
  private readonly options: Required<CustodyPayoutOptions>;

  constructor(options: CustodyPayoutOptions) {
    this.options = { timeoutMs: 15_000, fetch: globalThis.fetch, clock: Date.now, ...options };
  }

  async send(request: PayoutRequest): Promise<PayoutResult> {
    const { apiUrl, merchantId, apiKey, callbackUrl, timeoutMs } = this.options;
    // The provider takes the amount in whole coins as a decimal and one or more withdrawals as a JSON array.
    const body = JSON.stringify([
      {
        address: request.address,
        amount: formatDecimal(request.payoutAmount, request.scale, { trim: true }),
        merchantId,
        mainCoinType: String(request.mainCoinType),
        coinType: request.coinType,
        callUrl: callbackUrl,
        businessId: String(request.withdrawalId),
        memo: '',
      },
    ]);
    const envelope = signedEnvelope(body, apiKey, this.options.clock());
    let response: Response;
    try {
      response = await this.options.fetch(new URL('mch/withdraw', withSlash(apiUrl)), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(envelope),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      return {
        status: 'uncertain',
        reason: `no answer from the custody provider (${(error as Error).name})`,
      };
    }
    let reply: unknown;
    try {
      reply = await response.json();
    } catch {
      return {
        status: 'uncertain',
        reason: `the custody provider answered HTTP ${response.status} without JSON`,
      };
    }
    const code = typeof reply === 'object' && reply !== null ? (reply as { code?: unknown }).code : undefined;
    const message =
      typeof reply === 'object' && reply !== null ? (reply as { message?: unknown }).message : undefined;
    if (code === 200 || code === '200') return { status: 'accepted' };
    const reason = `${String(code ?? response.status)}: ${typeof message === 'string' ? message.slice(0, 200) : 'refused'}`;
    // A 5xx answer may come from a proxy after the provider took the request.
    return response.status >= 500 ? { status: 'uncertain', reason } : { status: 'refused', reason };
  }
}

function withSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}
