// The P2P settings: the public configuration (assets, fiats, methods, windows, fees, reference prices) and
// the back office's changes to fees, waits, limits and reference prices (audited).
import type { P2pConfig, P2pFiat } from '@fairex/shared';
import { P2P_DEFAULT_WINDOW_MINUTES, P2P_FIATS, P2P_METHODS, P2P_WINDOW_MINUTES } from '@fairex/shared';
import type { Actor } from '../admin/audit-changes.ts';
import { recordChange } from '../admin/audit-changes.ts';
import { cents, parseFiat } from './format.ts';
import { P2pPart } from './part.ts';

export class P2pSettings extends P2pPart {
  async config(): Promise<P2pConfig> {
    const config = this.engine.p2p.config();
    // When each reference was set: the engine holds the price, the projection the journaled time of the
    // command that set it (null for a reference set before that record began).
    const { rows } = await this.db.query<{ currency_id: number; fiat: string; time_ms: string }>(
      `select distinct on (currency_id, fiat) currency_id, fiat, time_ms::text as time_ms
         from p2p_reference_log order by currency_id, fiat, seq desc`,
    );
    const setAt = new Map(rows.map((row) => [`${row.currency_id}:${row.fiat}`, Number(row.time_ms)]));
    const references = config.references.map((reference) => ({
      currency_id: reference.currencyId,
      fiat: reference.fiat as P2pFiat,
      price: cents(reference.priceCents),
      time: setAt.get(`${reference.currencyId}:${reference.fiat}`) ?? null,
    }));
    return {
      assets: this.engine.ledger.currencies().map((currency) => ({
        currency_id: currency.currencyId,
        name: currency.code,
        scale: currency.scale,
      })),
      fiats: [...P2P_FIATS],
      methods: [...P2P_METHODS],
      window_minutes: P2P_WINDOW_MINUTES,
      default_window_minutes: P2P_DEFAULT_WINDOW_MINUTES,
      appeal_wait_minutes: Math.round(config.appealWaitMs / 60_000),
      maker_fee_bp: config.makerFeeBp,
      taker_fee_bp: config.takerFeeBp,
      cancellations_per_day: config.cancellationsPerDay,
      references,
    };
  }

  async configure(
    actor: Actor,
    input: {
      maker_fee_bp: number;
      taker_fee_bp: number;
      appeal_wait_minutes: number;
      cancellations_per_day: number;
    },
  ): Promise<void> {
    const before = this.engine.p2p.config();
    await this.submit({
      type: 'p2pConfigure',
      makerFeeBp: input.maker_fee_bp,
      takerFeeBp: input.taker_fee_bp,
      appealWaitMs: input.appeal_wait_minutes * 60_000,
      cancellationsPerDay: input.cancellations_per_day,
    });
    await recordChange(this.db, actor, {
      action: 'p2p.configured',
      targetType: 'p2p_config',
      targetId: 'p2p',
      before: {
        maker_fee_bp: before.makerFeeBp,
        taker_fee_bp: before.takerFeeBp,
        appeal_wait_minutes: before.appealWaitMs / 60_000,
        cancellations_per_day: before.cancellationsPerDay,
      },
      after: input,
    });
  }

  async setReference(
    actor: Actor,
    input: { currency_id: number; fiat: P2pFiat; price: string },
  ): Promise<void> {
    await this.submit({
      type: 'p2pSetReference',
      currencyId: input.currency_id,
      fiat: input.fiat,
      priceCents: parseFiat(input.price),
    });
    await recordChange(this.db, actor, {
      action: 'p2p.reference_set',
      targetType: 'p2p_reference',
      targetId: `${input.currency_id}:${input.fiat}`,
      detail: { price: input.price },
    });
  }
}
