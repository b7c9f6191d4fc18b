// The fee pages quote the catalogue's own figures, read from the database when they are seeded, so that a
// fresh installation never publishes a fee it does not charge. An operator who changes fees edits the pages.
import { formatDecimal } from '@fairex/shared';
import type { Queryable } from '../../store/index.ts';
import type { SeedFacts } from './items.ts';

/** Parts per million as a percent with no trailing zeros: 1000 -> "0.1". */
export function ppmToPercent(ppm: number): string {
  return formatDecimal(BigInt(ppm), 4, { trim: true });
}

export async function readSeedFacts(db: Queryable): Promise<SeedFacts> {
  const { rows: markets } = await db.query<{ symbol: string; maker_fee_ppm: number; taker_fee_ppm: number }>(
    `select symbol, maker_fee_ppm, taker_fee_ppm from markets where is_display order by display_order, id`,
  );
  const { rows: currencies } = await db.query<{
    code: string;
    name: string;
    scale: number;
    chains: { code?: unknown }[];
    withdraw_min: bigint;
    withdraw_fee: bigint;
  }>(
    `select code, name, scale, chains, withdraw_min, withdraw_fee
       from currencies where is_enabled and udun_id > -1 order by display_order, id`,
  );
  return {
    markets: markets.map((market) => ({
      symbol: market.symbol,
      makerPercent: ppmToPercent(market.maker_fee_ppm),
      takerPercent: ppmToPercent(market.taker_fee_ppm),
    })),
    currencies: currencies.map((currency) => ({
      code: currency.code,
      name: currency.name,
      networks: currency.chains.map((chain) => String(chain.code ?? '')).filter((code) => code !== ''),
      withdrawMin: formatDecimal(BigInt(currency.withdraw_min), currency.scale, { trim: true }),
      withdrawFee: formatDecimal(BigInt(currency.withdraw_fee), currency.scale, { trim: true }),
    })),
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const head = headers.map((header) => `<th scope="col">${escapeHtml(header)}</th>`).join('');
  const body = rows
    .map((row) => `<tr>${row.map((cell) => `<td>${escapeHtml(cell)}</td>`).join('')}</tr>`)
    .join('');
  return `<table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

/** The trading fee table: pair, maker and taker percent. */
export function tradingFeeTable(facts: SeedFacts, headers: readonly [string, string, string]): string {
  return table(
    headers,
    facts.markets.map((market) => [market.symbol, `${market.makerPercent}%`, `${market.takerPercent}%`]),
  );
}

/** The funding table: currency, networks, minimum withdrawal and withdrawal fee. */
export function fundingFeeTable(
  facts: SeedFacts,
  headers: readonly [string, string, string, string],
): string {
  return table(
    headers,
    facts.currencies.map((currency) => [
      `${currency.code} (${currency.name})`,
      currency.networks.join(', '),
      `${currency.withdrawMin} ${currency.code}`,
      `${currency.withdrawFee} ${currency.code}`,
    ]),
  );
}
