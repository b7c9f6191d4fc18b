// Starts the server: configuration, app, listen; closes gracefully on SIGINT and SIGTERM.
import { enableCompileCache } from 'node:module';

// Node's compile cache keeps the compiled (and type-stripped) modules on disk between starts, which takes
// about a third off loading the server's modules on every start after the first. It must be on before they
// load, so they are imported below rather than at the top. NODE_COMPILE_CACHE chooses the folder (default:
// the system's temporary folder); NODE_DISABLE_COMPILE_CACHE=1 turns it off.
enableCompileCache();
const { ConfigError, loadConfig } = await import('./config.ts');
const { openStore } = await import('./store/index.ts');
const { DurableLogReadAhead, durableLogFolder } = await import('./engine-runner/durable-log-files.ts');

const CLOSE_TIMEOUT_MS = 10_000;

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  throw error;
}
// The embedded store opens on a thread of its own (PGlite's start, the redo of its write-ahead log, the
// migrations) while this thread loads the server's modules: on a restart the two took about as long each.
// Once the data folder's lock is held, the durable log's files are read and checked meanwhile too (the
// runner opens the log from them), instead of after the store has opened.
let durableLogReadAhead: InstanceType<typeof DurableLogReadAhead> | undefined;
const storeOpening = openStore({
  databaseUrl: config.databaseUrl,
  dataDir: config.dataDir,
  embeddedThread: config.embeddedStoreThread,
  ...(config.journalFsync
    ? {
        onFolderLocked: () =>
          (durableLogReadAhead = new DurableLogReadAhead(durableLogFolder(config.dataDir))),
      }
    : {}),
});
// Awaited in main(), which reports a failure to open.
storeOpening.catch(() => {});
// Loading the modules below holds this thread for a second or more without a turn of the event loop; the
// store's first steps (its migrations' files, its folder's lock: synchronous reads) and the start of its
// thread run first, in this turn's microtasks.
await new Promise((resolve) => setImmediate(resolve));
const { buildApp } = await import('./app.ts');
const { issueSetupToken, setupLink, SETUP_TOKEN_TTL_MS } = await import('./admin/setup.ts');

async function main(config: ReturnType<typeof loadConfig>): Promise<void> {
  const store = await storeOpening;
  // The command-line server runs the whole exchange, live market data included.
  const app = await buildApp({
    config,
    // Opened above, so closed here after the app (the app closes only a store it opened itself).
    store,
    liveMarket: true,
    ...(durableLogReadAhead === undefined ? {} : { durableLogReadAhead }),
    // The in-memory engine is ahead of the journal after a failed commit: exit, and let the restart
    // recover exactly what was committed.
    onEngineFatal: (error) => {
      process.stderr.write(`Fairex engine stopped: ${error.message}. Exiting so that a restart recovers.\n`);
      process.exit(1);
    },
  });
  let closing = false;
  const close = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'closing');
    // A connection that will not finish must not keep the process alive forever.
    const timer = setTimeout(() => {
      app.log.error({ timeoutMs: CLOSE_TIMEOUT_MS }, 'close timed out; exiting');
      process.exit(1);
    }, CLOSE_TIMEOUT_MS);
    timer.unref();
    app
      .close()
      .then(() => store.close())
      .then(
        () => {
          clearTimeout(timer);
          process.exit(0);
        },
        (error: unknown) => {
          app.log.error({ err: error }, 'close failed');
          process.exit(1);
        },
      );
  };
  process.once('SIGINT', () => close('SIGINT'));
  process.once('SIGTERM', () => close('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  await announceSetupLink(app, config);
}

/**
 * While no administrator exists, a one-time link to create the first one goes to the log (once per start):
 * the command line cannot open the embedded database while the server holds it.
 */
async function announceSetupLink(
  app: Awaited<ReturnType<typeof buildApp>>,
  config: ReturnType<typeof loadConfig>,
): Promise<void> {
  const token = await issueSetupToken(app.store);
  if (token === null) return;
  const wildcard = ['0.0.0.0', '::', ''].includes(config.host);
  const host = wildcard ? 'localhost' : config.host.includes(':') ? `[${config.host}]` : config.host;
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : config.port;
  const link = setupLink(token, `http://${host}:${port}`);
  app.log.warn(
    `No administrator yet. Open ${link} within ${SETUP_TOKEN_TTL_MS / 60_000} minutes to create the first ` +
      "one (the link works once; a restart prints a new one; on another machine use this server's address).",
  );
}

main(config).catch((error: unknown) => {
  process.stderr.write(`Fairex could not start: ${(error as Error).message ?? String(error)}\n`);
  process.exit(1);
});
