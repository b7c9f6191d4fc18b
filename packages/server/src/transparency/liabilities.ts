// The latest liabilities entry of the log, as GET /api/log/liabilities/latest serves it (docs/transparency.md):
// read from the entry's own text, which is what the log commits to, so the reply is exactly what a
// checkpoint covers. Entry format (every line ends with "\n"):
//
//   fairex-log-v1 liabilities
//   snapshot <snapshot id>
//   seq <engine seq of the capture>
//   time <capture command time ms>
//   leaves <leaf count>
//   root <sum tree root hash hex>
//   total <column> <amount>                           one line per column, in column order
//   identity <currency> <users> <exchange> <outside>  one line per currency, ascending by currency code
import type { LiabilitiesIdentity, LiabilitiesLatestMessage } from '@fairex/shared';

/** The fields of a liabilities entry; undefined when the text is not one. */
export function parseLiabilitiesEntry(index: number, entry: string): LiabilitiesLatestMessage | undefined {
  if (!entry.endsWith('\n')) return undefined;
  const lines = entry.slice(0, -1).split('\n');
  if (lines[0] !== 'fairex-log-v1 liabilities') return undefined;
  const field = (at: number, name: string, pattern: RegExp): string | undefined => {
    const line = lines[at];
    if (line === undefined || !line.startsWith(`${name} `)) return undefined;
    const value = line.slice(name.length + 1);
    return pattern.test(value) ? value : undefined;
  };
  const whole = /^(0|[1-9]\d{0,15})$/;
  const snapshot = field(1, 'snapshot', /^\S+$/);
  const seq = field(2, 'seq', whole);
  const time = field(3, 'time', whole);
  const leaves = field(4, 'leaves', whole);
  const root = field(5, 'root', /^[0-9a-f]{64}$/);
  if ([snapshot, seq, time, leaves, root].includes(undefined)) return undefined;
  const columns: string[] = [];
  const totals: Record<string, string> = {};
  const identity: LiabilitiesIdentity[] = [];
  for (const line of lines.slice(6)) {
    const total = /^total (\S+) (0|[1-9]\d*)$/.exec(line);
    const balance = /^identity (\S+) (-?\d+) (-?\d+) (-?\d+)$/.exec(line);
    if (total !== null && identity.length === 0) {
      columns.push(total[1] as string);
      totals[total[1] as string] = total[2] as string;
    } else if (balance !== null) {
      identity.push({
        currency: balance[1] as string,
        users: balance[2] as string,
        exchange: balance[3] as string,
        outside: balance[4] as string,
      });
    } else return undefined;
  }
  return {
    snapshot_id: snapshot as string,
    index,
    time: Number(time),
    seq: Number(seq),
    root: root as string,
    leaves: Number(leaves),
    columns,
    totals,
    identity,
    entry,
  };
}
