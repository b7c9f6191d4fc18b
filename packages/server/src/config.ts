// Configuration from the environment, validated once at start. `settings` is the single table of every
// variable: validation, defaults and the operator documentation (docs/operations.md) all come from it.
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { COSIGNATURE_KEY_TYPE, parseVerifierKey } from './transparency/note.ts';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const PRICE_SOURCES = ['simulated', 'binance'] as const;
export type PriceSourceName = (typeof PRICE_SOURCES)[number];

export const JOURNAL_RETENTIONS = ['off', 'archive', 'delete'] as const;
export type JournalRetention = (typeof JOURNAL_RETENTIONS)[number];

export interface Config {
  port: number;
  host: string;
  trustProxy: string[] | undefined;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  corsOrigins: string[];
  smtpUrl: string | undefined;
  mailFrom: string;
  smsUrl: string | undefined;
  smsToken: string | undefined;
  inviteCodeRequired: boolean;
  sessionTtlHours: number;
  codeSendsPerHour: number;
  codeSendsPerIpPerHour: number;
  priceSources: PriceSourceName[];
  priceMinSources: number;
  priceStaleMs: number;
  priceHeadIntervalMs: number;
  logOrigin: string;
  logCheckpointIntervalMs: number;
  /** Witnesses' verifier keys (type 0x04) whose cosignatures the log accepts. */
  logWitnesses: string[];
  demo: boolean;
  /** Unset (the default): the simulator and the market maker draw from the operating system's CSPRNG. */
  seed: number | undefined;
  marketMaker: boolean;
  priceFeedUrl: string;
  priceHistoryUrl: string;
  custodyApiKey: string | undefined;
  custodyApiUrl: string | undefined;
  custodyMerchantId: string | undefined;
  custodyCallbackUrl: string | undefined;
  custodyCallbackMaxAgeSeconds: number;
  depositXpubs: string | undefined;
  flashPairs: string;
  flashFeePpm: number;
  microReserve: number;
  p2pWindowSeconds: number;
  p2pMinAccountAgeDays: number;
  p2pMinCompletedTrades: number;
  snapshotEveryCommands: number;
  snapshotEveryBytes: number;
  journalFsync: boolean;
  embeddedStoreThread: boolean;
  engineReplica: boolean;
  snapshotsKept: number;
  projectorMaxLag: number;
  readYourWritesWaitMs: number;
  journalRetention: JournalRetention;
  journalRetentionHours: number;
  logLevel: LogLevel;
  webDist: string;
}

export interface SettingDoc {
  name: string;
  /** The default as an operator would write it; undefined when the setting is off unless given. */
  default: string | undefined;
  meaning: string;
}

interface Setting<K extends keyof Config> extends SettingDoc {
  key: K;
  schema: z.ZodType<Config[K]>;
}

const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));

function urlWithProtocols(protocols: readonly string[]) {
  const error = `must be a URL starting with ${protocols.map((protocol) => `${protocol}//`).join(' or ')}`;
  return z
    .string()
    .refine((value) => URL.canParse(value) && protocols.includes(new URL(value).protocol), { error });
}

const optionalUrl = (protocols: readonly string[]) => urlWithProtocols(protocols).optional();

function wholeNumber(min: number, max: number) {
  const error = `must be a whole number from ${min} to ${max}`;
  return z
    .string()
    .regex(/^\d{1,9}$/, { error })
    .transform(Number)
    .pipe(z.number().min(min, { error }).max(max, { error }));
}

/** An IPv4 or IPv6 address, optionally with a CIDR prefix length, or a named range proxy-addr knows. */
function isProxyAddress(entry: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

const TRUST_PROXY_ERROR =
  'must be proxy addresses or CIDR ranges separated by commas (or loopback, linklocal, uniquelocal)';

/**
 * Proxies are named by address, never by a hop count: trusting "the last N hops" trusts whoever connects,
 * so a client talking to the server directly could claim any address (Fastify refuses hop counts for this).
 */
const trustProxySchema = z
  .string()
  .transform((value, context) => {
    const entries = value.split(',').map((entry) => entry.trim());
    if (entries.every(isProxyAddress)) return entries;
    context.addIssue({ code: 'custom', message: TRUST_PROXY_ERROR });
    return z.NEVER;
  })
  .optional();

/** Comma-separated web origins (scheme, host and port only), each as the browser sends it in `Origin`. */
function originList() {
  const error = 'must be a comma-separated list of web origins, each scheme://host[:port] without a path';
  return z
    .string()
    .optional()
    .transform((value = '') =>
      value
        .split(',')
        .map((origin) => origin.trim())
        .filter((origin) => origin !== ''),
    )
    .pipe(
      z.array(
        z
          .string()
          .refine(
            (origin) =>
              URL.canParse(origin) &&
              ['http:', 'https:'].includes(new URL(origin).protocol) &&
              new URL(origin).origin === origin,
            { error },
          ),
      ),
    );
}

function setting<K extends keyof Config>(definition: Setting<K>): Setting<K> {
  return definition;
}

export const settings = [
  setting({
    key: 'port',
    name: 'PORT',
    default: '8080',
    meaning: 'TCP port the HTTP and socket.io server listens on.',
    schema: z
      .string()
      .regex(/^\d{1,5}$/, { error: 'must be a whole number from 0 to 65535' })
      .transform(Number)
      .pipe(z.number().max(65535, { error: 'must be a whole number from 0 to 65535' })),
  }),
  setting({
    key: 'host',
    name: 'HOST',
    default: '127.0.0.1',
    meaning:
      'Address to listen on: 127.0.0.1 (this machine only, for a laptop start); a deployment sets 0.0.0.0 ' +
      '(every interface) or the address its proxy reaches.',
    schema: z.string().min(1, { error: 'must not be empty' }),
  }),
  setting({
    key: 'trustProxy',
    name: 'TRUST_PROXY',
    default: undefined,
    meaning:
      'Addresses and CIDR ranges of the reverse proxies in front of the server, separated by commas ' +
      '(10.0.0.0/8,127.0.0.1): from them X-Forwarded-For names the client. Unset: the header is ignored, so ' +
      "behind a proxy every user shares the proxy's address and its login and code limits.",
    schema: trustProxySchema,
  }),
  setting({
    key: 'dataDir',
    name: 'DATA_DIR',
    default: './data',
    meaning:
      'Folder for the embedded database (DATA_DIR/pglite) and other local files, resolved from the working directory.',
    schema: z
      .string()
      .min(1)
      .transform((value) => resolve(value)),
  }),
  setting({
    key: 'databaseUrl',
    name: 'DATABASE_URL',
    default: undefined,
    meaning: 'PostgreSQL connection URL. When set it replaces the embedded database in DATA_DIR.',
    schema: optionalUrl(['postgres:', 'postgresql:']),
  }),
  setting({
    key: 'redisUrl',
    name: 'REDIS_URL',
    default: undefined,
    meaning: 'Redis URL. When set, socket.io events fan out through Redis to every server process.',
    schema: optionalUrl(['redis:', 'rediss:']),
  }),
  setting({
    key: 'corsOrigins',
    name: 'CORS_ORIGINS',
    default: undefined,
    meaning:
      'Comma-separated web origins (e.g. https://trade.example.com) whose pages may call /api and socket.io ' +
      'from the browser: a front end served from another origin than the API. Unset: same origin only.',
    schema: originList(),
  }),
  setting({
    key: 'smtpUrl',
    name: 'SMTP_URL',
    default: undefined,
    meaning: 'SMTP server for outgoing mail (smtp:// or smtps://). When unset, mail goes to the dev outbox.',
    schema: optionalUrl(['smtp:', 'smtps:']),
  }),
  setting({
    key: 'mailFrom',
    name: 'MAIL_FROM',
    default: 'Fairex <no-reply@localhost>',
    meaning: 'Sender address of outgoing mail.',
    schema: z.string().min(3, { error: 'must be a mail address such as "Fairex <no-reply@example.com>"' }),
  }),
  setting({
    key: 'smsUrl',
    name: 'SMS_URL',
    default: undefined,
    meaning:
      'HTTP SMS gateway: verification texts are POSTed to it as JSON {"to":"+8613800000000","text":"..."}. ' +
      'When unset, texts go to the dev outbox.',
    schema: optionalUrl(['https:', 'http:']),
  }),
  setting({
    key: 'smsToken',
    name: 'SMS_TOKEN',
    default: undefined,
    meaning: 'Bearer token sent to SMS_URL in the Authorization header.',
    schema: z.string().min(1).optional(),
  }),
  setting({
    key: 'inviteCodeRequired',
    name: 'INVITE_CODE_REQUIRED',
    default: 'true',
    meaning:
      "Whether registering needs an invite code (a user's own code or an operator code from `npm run admin:create`): true or false.",
    schema: z
      .enum(['true', 'false'], { error: 'must be true or false' })
      .transform((value) => value === 'true'),
  }),
  setting({
    key: 'sessionTtlHours',
    name: 'SESSION_TTL_HOURS',
    default: '168',
    meaning: 'How long a login lasts, in hours, before the user must log in again.',
    schema: wholeNumber(1, 8760),
  }),
  setting({
    key: 'codeSendsPerHour',
    name: 'CODE_SENDS_PER_HOUR',
    default: '10',
    meaning: 'Verification codes sent to one e-mail address or phone number (and to one account) per hour.',
    schema: wholeNumber(1, 1000),
  }),
  setting({
    key: 'codeSendsPerIpPerHour',
    name: 'CODE_SENDS_PER_IP_PER_HOUR',
    default: '30',
    meaning: 'Verification codes one client address may request per hour.',
    schema: wholeNumber(1, 100000),
  }),
  setting({
    key: 'priceSources',
    name: 'PRICE_SOURCE',
    default: 'simulated',
    meaning:
      'Where index prices come from: simulated (a random-walk simulator, labelled simulated prices ' +
      'everywhere) or binance (the public market-data ' +
      'WebSocket of Binance, history from its REST klines); several separated by commas (the index is their ' +
      'median, history comes from the first).',
    schema: z
      .string()
      .transform((value) => value.split(',').map((name) => name.trim()))
      .pipe(
        z
          .array(z.enum(PRICE_SOURCES, { error: `must be one or more of ${PRICE_SOURCES.join(', ')}` }))
          .refine((names) => new Set(names).size === names.length, { error: 'must not name a source twice' }),
      ),
  }),
  setting({
    key: 'priceMinSources',
    name: 'PRICE_MIN_SOURCES',
    default: '1',
    meaning:
      'Fresh sources a price sample needs; with fewer the sample is stale (it repeats the last good index ' +
      'and mark, and products that settle on the mark must not).',
    schema: wholeNumber(1, 16),
  }),
  setting({
    key: 'priceStaleMs',
    name: 'PRICE_STALE_MS',
    default: '10000',
    meaning: "A source's price counts as fresh for a sample when it is at most this many milliseconds old.",
    schema: wholeNumber(100, 86_400_000),
  }),
  setting({
    key: 'priceHeadIntervalMs',
    name: 'PRICE_HEAD_INTERVAL_MS',
    default: '60000',
    meaning:
      "How often each market's price chain head is published (milliseconds): the first sample of each " +
      'interval becomes a head (table price_heads, socket event price_head).',
    schema: wholeNumber(1_000, 86_400_000),
  }),
  setting({
    key: 'logOrigin',
    name: 'LOG_ORIGIN',
    default: 'localhost/fairex-log',
    meaning:
      "The transparency log's origin: the first line of every checkpoint and the name of its key " +
      '(docs/transparency.md). Recorded by the journaled command that starts the log at the first start and ' +
      'never changed afterwards: set it before then, to the public host and a path, e.g. ' +
      'trade.example.com/fairex-log.',
    schema: z
      .string()
      .max(200, { error: 'must be at most 200 characters' })
      .regex(/^[!-*,-~]+$/, { error: 'must be printable ASCII without spaces or "+"' }),
  }),
  setting({
    key: 'logCheckpointIntervalMs',
    name: 'LOG_CHECKPOINT_INTERVAL_MS',
    default: '10000',
    meaning:
      'How often the transparency log publishes a signed checkpoint (milliseconds of command time): after an ' +
      'append in a later interval than the last checkpoint, and after every liabilities entry.',
    schema: wholeNumber(1_000, 86_400_000),
  }),
  setting({
    key: 'logWitnesses',
    name: 'LOG_WITNESSES',
    default: undefined,
    meaning:
      "Witnesses whose cosignatures of the log's checkpoints are accepted (POST /api/log/cosignature) and " +
      'served with them: their verifier keys (name+keyid+key, as `npm run witness` prints), separated by ' +
      'commas. Unset: none is accepted.',
    schema: z
      .string()
      .optional()
      .transform((value) =>
        value === undefined
          ? []
          : value
              .split(',')
              .map((entry) => entry.trim())
              .filter((entry) => entry !== ''),
      )
      .refine((keys) => keys.every((key) => parseVerifierKey(key)?.type === COSIGNATURE_KEY_TYPE), {
        error:
          'must be witness verifier keys (name+keyid+base64 of 0x04 and the public key) separated by commas',
      }),
  }),
  setting({
    key: 'demo',
    name: 'DEMO',
    default: 'on',
    meaning:
      'on (the demo, what npm start runs): the first start seeds demo data (labelled demo accounts, products and ' +
      'house capital, none of it counted in any public figure), and products that settle on prices take orders on a ' +
      'simulated price source; off (production): nothing is seeded, and seconds contracts and leverage refuse ' +
      'orders while the price source is simulated.',
    schema: z.enum(['on', 'off'], { error: 'must be on or off' }).transform((value) => value === 'on'),
  }),
  setting({
    key: 'seed',
    name: 'SEED',
    default: undefined,
    meaning:
      "Tests, benchmarks and reproducible runs only: a fixed seed for the price simulator's steps and history " +
      "and the market maker's draws (the same seed gives the same simulated prices, so anyone who knows it " +
      "can predict them). Unset: every draw comes from the operating system's cryptographic random source. " +
      'Refused with DEMO=off.',
    schema: wholeNumber(0, 999_999_999).optional(),
  }),
  setting({
    key: 'marketMaker',
    name: 'MARKET_MAKER',
    default: 'on',
    meaning:
      'on: the market maker quotes a ladder around the index price on every pair with post-only orders (it ' +
      'never takes: a user order resting across its ladder is left alone, and it trades only as the resting ' +
      'side of a user order); ' +
      'off: users trade only with each other (index prices and the history backfill run either way).',
    schema: z.enum(['on', 'off'], { error: 'must be on or off' }).transform((value) => value === 'on'),
  }),
  setting({
    key: 'priceFeedUrl',
    name: 'PRICE_FEED_URL',
    default: 'wss://data-stream.binance.vision',
    meaning: 'WebSocket base URL of the exchange feed when PRICE_SOURCE is an exchange.',
    schema: urlWithProtocols(['wss:', 'ws:']),
  }),
  setting({
    key: 'priceHistoryUrl',
    name: 'PRICE_HISTORY_URL',
    default: 'https://data-api.binance.vision',
    meaning: 'REST base URL of the exchange history (klines) when PRICE_SOURCE is an exchange.',
    schema: urlWithProtocols(['https:', 'http:']),
  }),
  setting({
    key: 'custodyApiKey',
    name: 'CUSTODY_API_KEY',
    default: undefined,
    meaning:
      'API key shared with the custody provider (uDun protocol): signs payout requests and verifies deposit and ' +
      'withdrawal callbacks at /api/custody/callback. When unset, every callback is refused.',
    schema: z.string().min(8, { error: 'must be at least 8 characters' }).optional(),
  }),
  setting({
    key: 'custodyApiUrl',
    name: 'CUSTODY_API_URL',
    default: undefined,
    meaning:
      "Base URL of the custody provider's gateway; approved withdrawals are sent to its /mch/withdraw. When " +
      'unset, payouts use the sandbox: nothing leaves, and a withdrawal completes on a signed callback or an ' +
      "administrator's confirmation.",
    schema: optionalUrl(['https:', 'http:']),
  }),
  setting({
    key: 'custodyMerchantId',
    name: 'CUSTODY_MERCHANT_ID',
    default: undefined,
    meaning: 'Merchant number at the custody provider; needed with CUSTODY_API_URL.',
    schema: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'must be letters, digits, _ or -' })
      .optional(),
  }),
  setting({
    key: 'custodyCallbackUrl',
    name: 'CUSTODY_CALLBACK_URL',
    default: undefined,
    meaning:
      "Public address of this server's /api/custody/callback, sent with each payout so the provider reports " +
      'its outcome there; needed with CUSTODY_API_URL.',
    schema: optionalUrl(['https:', 'http:']),
  }),
  setting({
    key: 'custodyCallbackMaxAgeSeconds',
    name: 'CUSTODY_CALLBACK_MAX_AGE_SECONDS',
    default: '600',
    meaning:
      'A callback whose timestamp is further than this from the server clock is refused as stale or replayed.',
    schema: wholeNumber(10, 86_400),
  }),
  setting({
    key: 'depositXpubs',
    name: 'DEPOSIT_XPUBS',
    default: undefined,
    meaning:
      'Account-level extended public keys, one per network, as network=key pairs separated by commas ' +
      "(networks: bitcoin, litecoin, dogecoin, ethereum, tron, xrpl). Each user's deposit address is " +
      'KEY/0/USER_ID. When unset, a development seed is generated in DATA_DIR/wallet and the log warns ' +
      'that its addresses are for development only.',
    schema: z
      .string()
      .regex(/^\s*[a-z]+=[1-9A-HJ-NP-Za-km-z]{100,120}\s*(,\s*[a-z]+=[1-9A-HJ-NP-Za-km-z]{100,120}\s*)*$/, {
        error: 'must be network=key pairs separated by commas',
      })
      .optional(),
  }),
  setting({
    key: 'flashPairs',
    name: 'FLASH_PAIRS',
    default: 'BTC/USDT',
    meaning:
      'Coins offered by flash exchange, as COIN/LEGAL pairs separated by commas, all with the same legal currency.',
    schema: z.string().regex(/^[A-Z0-9]{1,16}\/[A-Z0-9]{1,16}(,[A-Z0-9]{1,16}\/[A-Z0-9]{1,16})*$/, {
      error: 'must be COIN/LEGAL pairs separated by commas, such as BTC/USDT,ETH/USDT',
    }),
  }),
  setting({
    key: 'flashFeePpm',
    name: 'FLASH_FEE_PERCENT',
    default: '0.2',
    meaning: 'Flash exchange fee, in percent of what the user receives (0 to 10, up to 4 decimals).',
    schema: z
      .string()
      .regex(/^(10(\.0{1,4})?|\d(\.\d{1,4})?)$/, {
        error: 'must be a percent from 0 to 10 with at most 4 decimals',
      })
      .transform((value) => {
        const [whole = '0', fraction = ''] = value.split('.');
        return Number(whole) * 10_000 + Number(fraction.padEnd(4, '0'));
      }),
  }),
  setting({
    key: 'microReserve',
    name: 'MICRO_RESERVE',
    default: '1000000',
    meaning:
      "Seconds contracts, with DEMO=on only: whole USDT put into the house reserve (the house's micro wallet) at " +
      'the first start, as house capital moved there by a journaled transfer the back office lists. The default ' +
      "is the demo's, so a fresh start takes seconds orders; with DEMO=off nothing is funded and the operator " +
      "funds the reserve from the house's own funds in the back office. While the reserve is empty every order " +
      'is refused.',
    schema: wholeNumber(0, 1_000_000_000),
  }),
  setting({
    key: 'p2pWindowSeconds',
    name: 'P2P_WINDOW_SECONDS',
    default: '0',
    meaning:
      "P2P, for test and demo runs only: when above 0, every new ad's payment window is this many seconds (10 to 3600) instead of the minutes the merchant chose, so that a timeout can be watched; 0 keeps the chosen window.",
    schema: wholeNumber(0, 3600).refine((value) => value === 0 || value >= 10, {
      error: 'must be 0 or from 10 to 3600',
    }),
  }),
  setting({
    key: 'p2pMinAccountAgeDays',
    name: 'P2P_MIN_ACCOUNT_AGE_DAYS',
    default: '7',
    meaning:
      "P2P merchant applications: days since registration an applicant's account must have (with real-name verification approved).",
    schema: wholeNumber(0, 3650),
  }),
  setting({
    key: 'p2pMinCompletedTrades',
    name: 'P2P_MIN_COMPLETED_TRADES',
    default: '0',
    meaning: 'P2P merchant applications: completed P2P orders an applicant must have.',
    schema: wholeNumber(0, 100_000),
  }),
  setting({
    key: 'snapshotEveryCommands',
    name: 'SNAPSHOT_EVERY_COMMANDS',
    default: '50000',
    meaning:
      'The engine writes a snapshot once this many commands were journaled since the last one, however ' +
      'busy it is, so that a restart after a crash replays at most this many (0: only the time rule). See ' +
      '"Snapshots and retention".',
    schema: wholeNumber(0, 100_000_000),
  }),
  setting({
    key: 'snapshotEveryBytes',
    name: 'SNAPSHOT_EVERY_MB',
    default: '16',
    meaning:
      'The same rule by the size of the journal written since the last snapshot, in megabytes of ' +
      'encoded commands (0: off).',
    schema: wholeNumber(0, 100_000).transform((megabytes) => megabytes * 1024 * 1024),
  }),
  setting({
    key: 'journalFsync',
    name: 'JOURNAL_FSYNC',
    default: 'on',
    meaning:
      'Embedded store (PGlite) only: on appends every committed batch to DATA_DIR/durable-journal and ' +
      'flushes it to the disk (an O_DSYNC write, or fdatasync) before the reply, so that an operating-system ' +
      'crash or power loss loses nothing acknowledged; off trusts PGlite alone, which never flushes. ' +
      'PostgreSQL flushes its own journal. See "Durability".',
    schema: z.enum(['on', 'off'], { error: 'must be on or off' }).transform((value) => value === 'on'),
  }),
  setting({
    key: 'embeddedStoreThread',
    name: 'EMBEDDED_STORE_THREAD',
    default: 'on',
    meaning:
      'Embedded store (PGlite) only: on runs PGlite on a worker thread of its own, so that the statements ' +
      'of the projector and of history reads do not take the event loop serving requests; off runs it on ' +
      'the event loop. See "Embedded mode".',
    schema: z.enum(['on', 'off'], { error: 'must be on or off' }).transform((value) => value === 'on'),
  }),
  setting({
    key: 'engineReplica',
    name: 'ENGINE_REPLICA',
    default: 'on',
    meaning:
      'on keeps a replica of the engine in a worker thread, fed every committed batch, which takes the state ' +
      'hashes and snapshots, so that they never hold up requests however large the state (it costs a second ' +
      "copy of the engine's memory and the second core's time to apply each command again); off takes them " +
      'on the event loop. See "Snapshots and retention".',
    schema: z.enum(['on', 'off'], { error: 'must be on or off' }).transform((value) => value === 'on'),
  }),
  setting({
    key: 'snapshotsKept',
    name: 'SNAPSHOTS_KEPT',
    default: '3',
    meaning:
      'Engine snapshots kept in the database: the newest ones; older ones are deleted when a new one is ' +
      'written (the genesis snapshot of an unpruned journal is always kept).',
    schema: wholeNumber(1, 1000),
  }),
  setting({
    key: 'projectorMaxLag',
    name: 'PROJECTOR_MAX_LAG',
    default: '10000',
    meaning:
      'Journal-first commits: when the projector (which writes order history, trades, the account log... behind the journal) is more than this many commands behind, new commands are refused as busy until it catches up. See "Projector lag".',
    schema: wholeNumber(1, 10_000_000),
  }),
  setting({
    key: 'readYourWritesWaitMs',
    name: 'READ_YOUR_WRITES_WAIT_MS',
    default: '2000',
    meaning:
      'Read-your-writes: how long a signed-in request waits for the projector to reach what its user was last acknowledged before it is refused with a translated try-again message. See "Projector lag".',
    schema: wholeNumber(1, 600_000),
  }),
  setting({
    key: 'journalRetention',
    name: 'JOURNAL_RETENTION',
    default: 'archive',
    meaning:
      'Retention of what is older than the newest engine snapshot that is at least JOURNAL_RETENTION_HOURS old: ' +
      'archive (move the journal before it to gzip-compressed NDJSON files in DATA_DIR/archive), delete (drop it) ' +
      "or off (keep everything). Either way on, the market maker's orders that never traded leave the order and " +
      'account-log tables too. Runs a minute after start, then hourly; `npm run journal:compact` runs it by hand.',
    schema: z.enum(JOURNAL_RETENTIONS, { error: `must be one of ${JOURNAL_RETENTIONS.join(', ')}` }),
  }),
  setting({
    key: 'journalRetentionHours',
    name: 'JOURNAL_RETENTION_HOURS',
    default: '24',
    meaning:
      'How many hours of journal (and of market-maker orders) retention leaves in the database: it cuts only at ' +
      'a snapshot at least this old.',
    schema: wholeNumber(0, 87_600),
  }),
  setting({
    key: 'logLevel',
    name: 'LOG_LEVEL',
    default: 'info',
    meaning: `Log level: ${LOG_LEVELS.join(', ')}.`,
    schema: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }),
  }),
  setting({
    key: 'webDist',
    name: 'WEB_DIST',
    default: 'packages/web/dist',
    meaning:
      'Folder of the built web app, served for every path outside /api and /socket.io. ' +
      "By default the web package's dist folder of this installation.",
    schema: z
      .string()
      .min(1)
      .transform((value) => resolve(value)),
  }),
] as const;

/** The documentation view of the table (name, default, meaning), e.g. to keep docs in sync. */
export const configTable: readonly SettingDoc[] = settings.map(({ name, default: value, meaning }) => ({
  name,
  default: value,
  meaning,
}));

export class ConfigError extends Error {
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/**
 * Reads the configuration. An empty variable counts as unset (as compose files often leave them). All bad
 * variables are reported together; values are not echoed because URLs may carry passwords.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const config: Partial<Record<keyof Config, unknown>> = {};
  const problems: string[] = [];
  for (const item of settings) {
    const raw = env[item.name];
    const given = raw === undefined || raw === '' ? undefined : raw;
    const fallback = item.key === 'webDist' ? DEFAULT_WEB_DIST : item.default;
    const result = (item.schema as z.ZodType).safeParse(given ?? fallback);
    if (result.success) {
      config[item.key] = result.data;
    } else {
      problems.push(`${item.name} ${result.error.issues[0]?.message ?? 'is invalid'}`);
    }
  }
  // A fixed seed makes simulated prices predictable to whoever knows it (the operator always does): it is
  // for tests and reproducible runs, never for an exchange outside the demo.
  if (config.demo === false && config.seed !== undefined)
    problems.push(
      'SEED must be unset when DEMO=off: a fixed seed makes the simulated prices predictable (it is for tests and reproducible runs)',
    );
  if (problems.length > 0) throw new ConfigError(problems);
  return config as Config;
}

/** A markdown table of every setting, for docs/operations.md. */
export function configMarkdownTable(): string {
  const lines = ['| Variable | Default | Meaning |', '| --- | --- | --- |'];
  for (const item of configTable) {
    lines.push(
      `| \`${item.name}\` | ${item.default === undefined ? '(unset)' : `\`${item.default}\``} | ${item.meaning} |`,
    );
  }
  return lines.join('\n');
}
