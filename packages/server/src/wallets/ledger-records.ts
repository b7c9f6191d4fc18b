// Records read from account_log, the engine's own projection of every balance change: the account ledger,
// transfers between wallets (the two rows of each walletTransfer) and one wallet's log. Nothing here is
// stored twice.
import { ReasonCode, reasonName } from '@fairex/engine';
import type { Wallet } from '@fairex/engine';
import type { Language, MessageKey } from '@fairex/shared';
import { formatDecimal, isMessageKey, paged, translate } from '@fairex/shared';
import type { Paged } from '@fairex/shared';
import type { LedgerEntry, TransferRecord } from '@fairex/shared/api/wallet.ts';
import type { Queryable } from '../store/index.ts';
import type { WalletCatalog } from './catalog.ts';

export type { LedgerEntry, TransferRecord };

interface LogRow {
  seq: string | number;
  event_index: number;
  wallet: Wallet;
  currency_id: number;
  available_before: string;
  available_after: string;
  locked_before: string;
  locked_after: string;
  reason: number;
  reference_id: string | number;
  time_ms: string | number;
}

export function walletName(lang: Language, wallet: Wallet): string {
  const key = `wallet.name.${wallet}`;
  return isMessageKey(key) ? translate(lang, key) : wallet;
}

export function reasonText(lang: Language, reason: number): string {
  const key = `wallet.reason.${reasonName(reason)}`;
  return translate(lang, isMessageKey(key) ? (key as MessageKey) : 'wallet.reason.other');
}

const ORDER_REASONS = new Set(['orderHold', 'orderRelease', 'orderPriceImprovement']);
const TRADE_REASONS = new Set(['tradeSettlement', 'tradeFee']);

/**
 * What a balance change belongs to, translated ("Order 123", "Trade 456", "Withdrawal 7"), so that a hold
 * and its release can be matched to their order; "" when the change belongs to no record.
 */
export function referenceText(lang: Language, reason: number, referenceId: number): string {
  if (referenceId === 0) return '';
  const name = reasonName(reason);
  const kind = ORDER_REASONS.has(name)
    ? 'order'
    : TRADE_REASONS.has(name)
      ? 'trade'
      : name.startsWith('withdrawal')
        ? 'withdrawal'
        : 'other';
  return translate(lang, `wallet.reference.${kind}`, { id: referenceId });
}

export class LedgerRecords {
  private readonly db: Queryable;
  private readonly catalog: WalletCatalog;

  constructor(db: Queryable, catalog: WalletCatalog) {
    this.db = db;
    this.catalog = catalog;
  }

  /** The user's balance changes, newest first; optionally one wallet and one currency. */
  async ledger(input: {
    userId: number;
    lang: Language;
    page: number;
    perPage: number;
    wallet?: Wallet;
    currencyId?: number;
  }): Promise<Paged<LedgerEntry>> {
    const conditions = ['owner_key = $1'];
    const params: unknown[] = [input.userId];
    if (input.currencyId !== undefined) {
      params.push(input.currencyId);
      conditions.push(`currency_id = $${params.length}`);
    }
    if (input.wallet !== undefined) {
      params.push(input.wallet);
      conditions.push(`wallet = $${params.length}`);
    }
    const where = conditions.join(' and ');
    const total = await this.db.query<{ count: string | number }>(
      `select count(*) as count from account_log where ${where}`,
      params,
    );
    const { rows } = await this.db.query<LogRow>(
      `select seq, event_index, wallet, currency_id, available_before, available_after, locked_before, locked_after,
              reason, reference_id, time_ms
         from account_log where ${where}
        order by seq desc, event_index desc limit ${input.perPage} offset ${(input.page - 1) * input.perPage}`,
      params,
    );
    const entries: LedgerEntry[] = [];
    for (const row of rows) {
      const currency = await this.catalog.currency(row.currency_id);
      const scale = currency?.scale ?? 0;
      const code = currency?.code ?? String(row.currency_id);
      const availableChange = BigInt(row.available_after) - BigInt(row.available_before);
      const lockedChange = BigInt(row.locked_after) - BigInt(row.locked_before);
      entries.push({
        id: `${row.seq}-${row.event_index}`,
        created_time: new Date(Number(row.time_ms)).toISOString(),
        wallet: row.wallet,
        currency: row.currency_id,
        currency_name: code,
        account: `${walletName(input.lang, row.wallet)} · ${code}`,
        reason: reasonName(row.reason),
        info: reasonText(input.lang, row.reason),
        reference_id: Number(row.reference_id),
        reference: referenceText(input.lang, row.reason, Number(row.reference_id)),
        value: signed(availableChange, scale),
        lock_value: signed(lockedChange, scale),
        amount: signed(entryAmount(availableChange, lockedChange), scale),
        balance: formatDecimal(BigInt(row.available_after), scale),
      });
    }
    return paged(entries, input.page, input.perPage, Number(total.rows[0]?.count ?? 0));
  }

  /** Transfers between the user's wallets, newest first. */
  async transfers(input: {
    userId: number;
    lang: Language;
    page: number;
    perPage: number;
    currencyId?: number;
  }): Promise<Paged<TransferRecord>> {
    const params: unknown[] = [input.userId, ReasonCode.walletTransfer];
    let filter = '';
    if (input.currencyId !== undefined) {
      params.push(input.currencyId);
      filter = `and a.currency_id = $${params.length}`;
    }
    const base = `from account_log a
      join account_log b on b.owner_key = a.owner_key and b.currency_id = a.currency_id and b.seq = a.seq
                        and b.transfer_id = a.transfer_id and b.event_index = a.event_index + 1
     where a.owner_key = $1 and a.reason = $2 and a.available_after < a.available_before ${filter}`;
    const total = await this.db.query<{ count: string | number }>(`select count(*) as count ${base}`, params);
    const { rows } = await this.db.query<{
      seq: string | number;
      transfer_id: string | number;
      currency_id: number;
      from_wallet: Wallet;
      to_wallet: Wallet;
      amount: string;
      time_ms: string | number;
    }>(
      `select a.seq, a.transfer_id, a.currency_id, a.wallet as from_wallet, b.wallet as to_wallet,
              (b.available_after - b.available_before)::text as amount, a.time_ms
         ${base}
        order by a.seq desc limit ${input.perPage} offset ${(input.page - 1) * input.perPage}`,
      params,
    );
    const records: TransferRecord[] = [];
    for (const row of rows) {
      const currency = await this.catalog.currency(row.currency_id);
      records.push({
        id: String(row.transfer_id),
        create_time: new Date(Number(row.time_ms)).toISOString(),
        currency: row.currency_id,
        currency_name: currency?.code ?? String(row.currency_id),
        from_account: row.from_wallet,
        to_account: row.to_wallet,
        from_name: walletName(input.lang, row.from_wallet),
        to_name: walletName(input.lang, row.to_wallet),
        number: formatDecimal(BigInt(row.amount), currency?.scale ?? 0),
      });
    }
    return paged(records, input.page, input.perPage, Number(total.rows[0]?.count ?? 0));
  }
}

/**
 * What one balance change moved: the change of the whole balance (available plus frozen) when money came in
 * or went out - a loss taken from a held margin leaves the available part as it was and is still a loss -
 * or, for a hold or its release (money moving between the two parts only), the change of the available part.
 */
export function entryAmount(availableChange: bigint, lockedChange: bigint): bigint {
  const whole = availableChange + lockedChange;
  return whole !== 0n ? whole : availableChange;
}

function signed(change: bigint, scale: number): string {
  const text = formatDecimal(change, scale);
  return change > 0n ? `+${text}` : text;
}
