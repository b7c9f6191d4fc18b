// `npm run journal:compact -- [--delete] [--keep-hours <n>]`: removes the engine journal at or before the
// newest snapshot (checked to restore to its state hash) that is at least --keep-hours old (default
// JOURNAL_RETENTION_HOURS), archiving it first to DATA_DIR/archive as gzip-compressed NDJSON unless --delete
// is given, and deletes snapshots beyond the newest SNAPSHOTS_KEPT. Reads DATA_DIR / DATABASE_URL like the
// server; with the embedded database the server must be stopped first (one process per data folder).
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { openStore } from '../store/index.ts';
import { compactJournal } from './retention.ts';

const USAGE = 'Usage: npm run journal:compact -- [--delete] [--keep-hours <n>]';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { delete: { type: 'boolean' }, 'keep-hours': { type: 'string' }, help: { type: 'boolean' } },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const config = loadConfig();
  const keepHours =
    values['keep-hours'] === undefined ? config.journalRetentionHours : Number(values['keep-hours']);
  if (!Number.isSafeInteger(keepHours) || keepHours < 0)
    throw new Error(`--keep-hours must be a whole number\n${USAGE}`);
  const store = await openStore({
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    embeddedThread: config.embeddedStoreThread,
  });
  try {
    const result = await compactJournal(store, {
      mode: values.delete ? 'delete' : 'archive',
      archiveDir: join(config.dataDir, 'archive'),
      keepMs: keepHours * 3_600_000,
      snapshotsKept: config.snapshotsKept,
      vacuum: store.kind === 'pglite',
    });
    const lines =
      result.cutSeq === 0
        ? [`No snapshot at least ${keepHours} h old restores to its state hash: nothing removed.`]
        : [
            `Cut at the snapshot of seq ${result.cutSeq}.`,
            `Removed ${result.removedCommands} commands in ${result.removedBatches} journal rows.`,
          ];
    if (result.archiveFile) lines.push(`Archived to ${result.archiveFile}.`);
    lines.push(
      `Removed ${result.removedQuotes} system orders that never traded, and ${result.removedSnapshots} old snapshots.`,
    );
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await store.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`journal:compact failed: ${(error as Error).message ?? String(error)}\n`);
  process.exitCode = 1;
});
