import { apiAddress } from '../../data/api-base.ts';
import type { BoardRow } from './board-rows.ts';

interface CoinPairProps {
  row: BoardRow;
  /** Leave out "/USDT" where every pair shares the quote and space is short. */
  compact?: boolean;
}

/** The coin's logo (or its initial when the server has none) and the pair name "BTC/USDT". */
export function CoinPair({ row, compact = false }: CoinPairProps) {
  return (
    <span className="fx-coin-pair">
      {row.logo === undefined ? (
        <span className="fx-coin-mark" aria-hidden="true">
          {row.currency_name.slice(0, 1)}
        </span>
      ) : (
        <img className="fx-coin-mark" src={apiAddress(row.logo)} alt="" loading="lazy" />
      )}
      <span className="fx-coin-name">
        <span className="fx-coin-base">{row.currency_name}</span>
        {!compact && <span className="fx-coin-quote">/{row.legal_name}</span>}
      </span>
    </span>
  );
}
