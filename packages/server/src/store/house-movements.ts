// The latest movements of one of the house's wallets, read from account_log (the engine's projection of
// every balance change): the back office lists the seconds reserve's fundings and the flash desk's capital
// from it. One query for both, so the two lists count a movement the same way.
import { ownerKeyOf } from '@fairex/engine';
import type { Engine, Wallet } from '@fairex/engine';
import { formatDecimal } from '@fairex/shared';
import type { Queryable } from './index.ts';

export interface HouseMovement {
  transfer_id: number;
  currency_id: number;
  code: string;
  /** The signed change of the wallet's balance (available plus held), as decimal text. */
  amount: string;
  memo: string | null;
  time: number;
}

/** The house wallet's latest changes for the given reasons (and currencies, when named), newest first. */
export async function houseMovements(
  db: Queryable,
  engine: Engine,
  query: { wallet: Wallet; reasons: readonly number[]; currencyIds?: readonly number[]; limit: number },
): Promise<HouseMovement[]> {
  const { rows } = await db.query<{
    transfer_id: string;
    currency_id: number;
    change: string;
    memo: string | null;
    time_ms: string;
  }>(
    `select transfer_id::text, currency_id,
            ((available_after + locked_after) - (available_before + locked_before))::text as change,
            memo, time_ms::text
       from account_log
      where owner_key = $1 and wallet = $2 and reason = any($3::smallint[])
        and ($4::int[] is null or currency_id = any($4::int[]))
      order by seq desc, event_index desc
      limit $5`,
    [
      ownerKeyOf('house'),
      query.wallet,
      [...query.reasons],
      query.currencyIds ? [...query.currencyIds] : null,
      query.limit,
    ],
  );
  return rows.map((row) => {
    const currency = engine.ledger.currency(row.currency_id);
    return {
      transfer_id: Number(row.transfer_id),
      currency_id: row.currency_id,
      code: currency?.code ?? '',
      amount: formatDecimal(BigInt(row.change), currency?.scale ?? 0),
      memo: row.memo,
      time: Number(row.time_ms),
    };
  });
}
