// `lever_trade` to the owner's room on every change of the user's lever records, from committed batches
// only (what a user is told has happened is durable): one push per user and quote currency a batch touched,
// with the risk rate, the totals, and the live holdings and entries as JSON text (spec 01 section 7).
import type { Command, EngineEvent } from '@fairex/engine';
import type { LeverTradePayload } from '@fairex/shared';
import { formatDecimal } from '@fairex/shared';
import type { CommittedBatch } from '../engine-runner/index.ts';
import type { Realtime } from '../realtime/index.ts';
import type { LeverService } from './service.ts';

export interface LeverPushesOptions {
  service: Pick<LeverService, 'dealAll'>;
  realtime: Pick<Realtime, 'toUser'>;
  scaleOf(currencyId: number): number;
  onCommitted(listener: (batch: CommittedBatch<Command, EngineEvent>) => void): () => void;
  onError?(error: unknown): void;
}

/** The users and quote currencies a batch's lever events touched, with the profit realised in it. */
export function touchedAccounts(batch: CommittedBatch<Command, EngineEvent>): Map<string, bigint> {
  const touched = new Map<string, bigint>();
  for (const { outcome } of batch.entries) {
    for (const event of outcome.events) {
      switch (event.type) {
        case 'leverEntryPlaced':
        case 'leverEntryRevoked':
        case 'leverPositionOpened':
        case 'leverOvernightCharged':
        case 'leverLiquidated': {
          const key = `${event.userId}:${event.quoteCurrencyId}`;
          touched.set(key, touched.get(key) ?? 0n);
          break;
        }
        case 'leverPositionClosed': {
          const key = `${event.userId}:${event.quoteCurrencyId}`;
          touched.set(key, (touched.get(key) ?? 0n) + event.profit);
          break;
        }
        case 'leverStopsSet': {
          // Stops carry no currency: the push covers every currency of the user (rarely more than one).
          const key = `${event.userId}:*`;
          touched.set(key, touched.get(key) ?? 0n);
          break;
        }
        default:
          break;
      }
    }
  }
  return touched;
}

export function startLeverPushes(options: LeverPushesOptions): () => void {
  return options.onCommitted((batch) => {
    const touched = touchedAccounts(batch);
    if (touched.size === 0) return;
    void (async () => {
      for (const [key, realised] of touched) {
        const [user, currency] = key.split(':');
        const userId = Number(user);
        const all = await options.service.dealAll(userId);
        const currencies = currency === '*' ? all.risks.map((risk) => risk.legal_id) : [Number(currency)];
        if (currencies.length === 0 && currency !== '*') currencies.push(Number(currency));
        for (const legalId of currencies) {
          const risk = all.risks.find((candidate) => candidate.legal_id === legalId);
          const scale = options.scaleOf(legalId);
          const payload: LeverTradePayload = {
            type: 'lever_trade',
            legal_id: legalId,
            hazard_rate: risk?.hazard_rate ?? '0',
            profits_all: risk?.profits_all ?? formatDecimal(0n, scale),
            profits: formatDecimal(realised, scale),
            caution_money_all: risk?.caution_money_all ?? formatDecimal(0n, scale),
            trades_all: JSON.stringify(all.trades_all.filter((row) => row.legal_id === legalId)),
            trades_entrust: JSON.stringify(all.trades_entrust.filter((row) => row.legal_id === legalId)),
          };
          options.realtime.toUser(userId, 'lever_trade', payload);
        }
      }
    })().catch((error: unknown) => options.onError?.(error));
  });
}
