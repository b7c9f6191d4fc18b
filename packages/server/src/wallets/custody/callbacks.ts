// The custody provider's callback (POST /api/custody/callback): verify, then credit a confirmed deposit
// once or move a withdrawal to its chain outcome. Every callback is logged with what became of it.
//
// The reply is the text `success` once a callback has been processed, the first time or a repeat, so the
// provider stops sending it; anything else (`error`) makes it try again later. A forged or stale
// callback, or a deposit to an address we never issued, is not processed and credits nothing.
import type { Store } from '../../store/index.ts';
import type { WalletCatalog } from '../catalog.ts';
import { checkAddress } from '../chains/addresses.ts';
import { canonicalTxId, txIdShape } from '../chains/tx-ids.ts';
import type { DepositService } from '../deposits.ts';
import type { WithdrawalService } from '../withdrawals.ts';
import type { CustodyTrade } from './protocol.ts';
import {
  TRADE_DEPOSIT,
  TRADE_STATUS,
  custodySignMatches,
  parseTrade,
  timestampMs,
  toMinorUnits,
} from './protocol.ts';

export interface CallbackFields {
  timestamp: string;
  nonce: string;
  sign: string;
  body: string;
}

export interface CallbackResult {
  reply: 'success' | 'error';
  outcome: string;
  detail: string;
}

const MAX_LOGGED_BODY = 4096;

export class CustodyCallbacks {
  private readonly store: Store;
  private readonly catalog: WalletCatalog;
  private readonly deposits: DepositService;
  private readonly withdrawals: WithdrawalService;
  private readonly apiKey: string | undefined;
  private readonly maxAgeMs: number;
  private readonly clock: () => number;

  constructor(deps: {
    store: Store;
    catalog: WalletCatalog;
    deposits: DepositService;
    withdrawals: WithdrawalService;
    apiKey: string | undefined;
    maxAgeMs: number;
    clock?: () => number;
  }) {
    this.store = deps.store;
    this.catalog = deps.catalog;
    this.deposits = deps.deposits;
    this.withdrawals = deps.withdrawals;
    this.apiKey = deps.apiKey;
    this.maxAgeMs = deps.maxAgeMs;
    this.clock = deps.clock ?? Date.now;
  }

  async handle(fields: CallbackFields, ip: string | null): Promise<CallbackResult> {
    const verified = this.verify(fields);
    let result: CallbackResult;
    let trade: CustodyTrade | undefined;
    if (verified !== undefined) {
      result = verified;
    } else {
      const parsed = parseTrade(fields.body);
      if (!parsed.ok) {
        result = { reply: 'error', outcome: 'refused', detail: parsed.reason };
      } else {
        trade = parsed.trade;
        result = trade.tradeType === TRADE_DEPOSIT ? await this.deposit(trade) : await this.withdrawal(trade);
      }
    }
    await this.store.query(
      `insert into custody_callbacks (ip, timestamp_text, nonce, sign_ok, outcome, detail, trade_type, tx_id, body)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        ip,
        fields.timestamp.slice(0, 32),
        fields.nonce.slice(0, 64),
        verified === undefined,
        result.outcome,
        result.detail.slice(0, 500),
        trade?.tradeType ?? null,
        trade?.txId ?? null,
        fields.body.slice(0, MAX_LOGGED_BODY),
      ],
    );
    return result;
  }

  /** Logs a request that did not even carry the four fields. */
  async log(input: { ip: string | null; detail: string }): Promise<void> {
    await this.store.query(
      `insert into custody_callbacks (ip, sign_ok, outcome, detail) values ($1, false, 'refused', $2)`,
      [input.ip, input.detail],
    );
  }

  /** Undefined when the callback is authentic and fresh; otherwise why not. */
  private verify(fields: CallbackFields): CallbackResult | undefined {
    if (this.apiKey === undefined) {
      return { reply: 'error', outcome: 'refused', detail: 'CUSTODY_API_KEY is not configured' };
    }
    if (!custodySignMatches(fields.sign, fields.body, this.apiKey, fields.nonce, fields.timestamp)) {
      return { reply: 'error', outcome: 'refused', detail: 'bad signature' };
    }
    const sentMs = timestampMs(fields.timestamp);
    if (sentMs === undefined || Math.abs(this.clock() - sentMs) > this.maxAgeMs) {
      return { reply: 'error', outcome: 'refused', detail: 'timestamp outside the accepted window' };
    }
    return undefined;
  }

  private async deposit(trade: CustodyTrade): Promise<CallbackResult> {
    const found = await this.catalog.chainByCoin(trade.mainCoinType, trade.coinType);
    if (!found) return { reply: 'error', outcome: 'refused', detail: 'unknown coin' };
    const { currency, chain } = found;
    const check = checkAddress(chain.network, trade.address);
    const userId = check.ok ? await this.deposits.addressOwner(chain.network, check.address) : undefined;
    if (!check.ok || userId === undefined)
      return { reply: 'error', outcome: 'refused', detail: 'unknown address' };
    if (trade.status !== TRADE_STATUS.confirmed) {
      // Reported before confirmation: noted, credited when the confirmed report comes.
      return { reply: 'success', outcome: 'noted', detail: `status ${trade.status}` };
    }
    if (trade.txId === '')
      return { reply: 'error', outcome: 'refused', detail: 'confirmed deposit without txId' };
    // One transaction has one id whatever its spelling: the credit-once check sees the canonical form.
    const txId = canonicalTxId(chain.network, trade.txId);
    if (!txId.ok) {
      const detail = `txId is not a ${chain.network} transaction id (${txIdShape(chain.network)})`;
      return { reply: 'error', outcome: 'refused', detail };
    }
    const { minor } = toMinorUnits(trade.amount, trade.decimals, currency.scale);
    if (minor <= 0n) return { reply: 'success', outcome: 'noted', detail: 'amount below the smallest unit' };
    const credited = await this.deposits.credit({
      userId,
      currencyId: currency.id,
      chainType: chain.chainType,
      address: check.address,
      coinType: chain.coinType,
      txId: txId.txId,
      tradeId: trade.tradeId || null,
      chainAmount: trade.amount,
      chainDecimals: trade.decimals,
      amount: minor,
      source: 'custody',
      adminId: null,
      note: null,
    });
    return { reply: 'success', outcome: credited.outcome, detail: `deposit ${credited.depositId}` };
  }

  private async withdrawal(trade: CustodyTrade): Promise<CallbackResult> {
    const status =
      trade.status === TRADE_STATUS.confirmed
        ? 'confirmed'
        : trade.status === TRADE_STATUS.rejected || trade.status === TRADE_STATUS.failed
          ? 'failed'
          : 'progress';
    const result = await this.withdrawals.report({
      businessId: trade.businessId,
      status,
      address: trade.address,
      chainAmount: trade.amount,
      chainDecimals: trade.decimals,
      txId: trade.txId,
      tradeId: trade.tradeId,
    });
    return {
      reply: result.outcome === 'refused' ? 'error' : 'success',
      outcome: result.outcome,
      detail: `withdrawal ${trade.businessId}${result.detail ? `: ${result.detail}` : ''}`,
    };
  }
}
