import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, configMarkdownTable, configTable, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('uses the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      trustProxy: undefined,
      dataDir: resolve('data'),
      databaseUrl: undefined,
      redisUrl: undefined,
      corsOrigins: [],
      smtpUrl: undefined,
      mailFrom: 'Fairex <no-reply@localhost>',
      smsUrl: undefined,
      smsToken: undefined,
      inviteCodeRequired: true,
      sessionTtlHours: 168,
      codeSendsPerHour: 10,
      codeSendsPerIpPerHour: 30,
      priceSources: ['simulated'],
      priceMinSources: 1,
      priceStaleMs: 10_000,
      priceHeadIntervalMs: 60_000,
      demo: true,
      // Unset: the simulator and the market maker draw from the operating system's random source.
      seed: undefined,
      marketMaker: true,
      // The demo's seconds reserve; production sets MICRO_RESERVE=0 (docs/micro.md).
      microReserve: 1_000_000,
      custodyApiKey: undefined,
      custodyApiUrl: undefined,
      custodyCallbackMaxAgeSeconds: 600,
      depositXpubs: undefined,
      flashPairs: 'BTC/USDT',
      flashFeePpm: 2000,
      snapshotEveryCommands: 50_000,
      snapshotEveryBytes: 16 * 1024 * 1024,
      snapshotsKept: 3,
      journalRetention: 'archive',
      journalRetentionHours: 24,
      logLevel: 'info',
    });
    expect(config.webDist).toBe(resolve(import.meta.dirname, '../../web/dist'));
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '3000',
      HOST: '0.0.0.0',
      TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1, fd00::/8',
      DATA_DIR: '/var/lib/fairex',
      DATABASE_URL: 'postgres://user:secret@db.internal:5432/fairex',
      REDIS_URL: 'redis://cache:6379/0',
      CORS_ORIGINS: 'https://trade.example.com, http://localhost:5173',
      SMTP_URL: 'smtps://mailer:pw@smtp.example.com:465',
      MAIL_FROM: 'Fairex <no-reply@example.com>',
      SMS_URL: 'https://sms.example.com/send',
      SMS_TOKEN: 'sms-secret',
      INVITE_CODE_REQUIRED: 'false',
      SESSION_TTL_HOURS: '24',
      CODE_SENDS_PER_HOUR: '5',
      CODE_SENDS_PER_IP_PER_HOUR: '50',
      PRICE_SOURCE: 'binance,simulated',
      PRICE_MIN_SOURCES: '2',
      PRICE_STALE_MS: '5000',
      PRICE_HEAD_INTERVAL_MS: '30000',
      LOG_ORIGIN: 'trade.example.com/fairex-log',
      LOG_CHECKPOINT_INTERVAL_MS: '5000',
      LOG_WITNESSES: 'witness.test/w1+78596eae+BP0XJDhaoMdbZPt4zWAvodmR/ev3axPFjtcC6sg16fYY, ',
      DEMO: 'on',
      SEED: '42',
      MARKET_MAKER: 'off',
      PRICE_FEED_URL: 'ws://127.0.0.1:9000',
      PRICE_HISTORY_URL: 'http://127.0.0.1:9001',
      CUSTODY_API_KEY: 'custody-secret',
      CUSTODY_API_URL: 'https://custody.example.com/api',
      CUSTODY_MERCHANT_ID: '300123',
      CUSTODY_CALLBACK_URL: 'https://fairex.example.com/api/custody/callback',
      CUSTODY_CALLBACK_MAX_AGE_SECONDS: '120',
      DEPOSIT_XPUBS: `bitcoin=${'x'.repeat(111)}`,
      FLASH_PAIRS: 'BTC/USDT,ETH/USDT',
      FLASH_FEE_PERCENT: '0.125',
      MICRO_RESERVE: '250000',
      P2P_WINDOW_SECONDS: '30',
      P2P_MIN_ACCOUNT_AGE_DAYS: '3',
      P2P_MIN_COMPLETED_TRADES: '5',
      SNAPSHOT_EVERY_COMMANDS: '20000',
      SNAPSHOT_EVERY_MB: '4',
      SNAPSHOTS_KEPT: '5',
      PROJECTOR_MAX_LAG: '20000',
      READ_YOUR_WRITES_WAIT_MS: '1500',
      JOURNAL_FSYNC: 'off',
      EMBEDDED_STORE_THREAD: 'off',
      ENGINE_REPLICA: 'off',
      JOURNAL_RETENTION: 'delete',
      JOURNAL_RETENTION_HOURS: '48',
      LOG_LEVEL: 'debug',
      WEB_DIST: '/srv/web',
    });
    expect(config).toEqual({
      port: 3000,
      host: '0.0.0.0',
      trustProxy: ['10.0.0.0/8', '127.0.0.1', '::1', 'fd00::/8'],
      dataDir: '/var/lib/fairex',
      databaseUrl: 'postgres://user:secret@db.internal:5432/fairex',
      redisUrl: 'redis://cache:6379/0',
      corsOrigins: ['https://trade.example.com', 'http://localhost:5173'],
      smtpUrl: 'smtps://mailer:pw@smtp.example.com:465',
      mailFrom: 'Fairex <no-reply@example.com>',
      smsUrl: 'https://sms.example.com/send',
      smsToken: 'sms-secret',
      inviteCodeRequired: false,
      sessionTtlHours: 24,
      codeSendsPerHour: 5,
      codeSendsPerIpPerHour: 50,
      priceSources: ['binance', 'simulated'],
      priceMinSources: 2,
      priceStaleMs: 5000,
      priceHeadIntervalMs: 30_000,
      logOrigin: 'trade.example.com/fairex-log',
      logCheckpointIntervalMs: 5000,
      logWitnesses: ['witness.test/w1+78596eae+BP0XJDhaoMdbZPt4zWAvodmR/ev3axPFjtcC6sg16fYY'],
      demo: true,
      seed: 42,
      marketMaker: false,
      priceFeedUrl: 'ws://127.0.0.1:9000',
      priceHistoryUrl: 'http://127.0.0.1:9001',
      custodyApiKey: 'custody-secret',
      custodyApiUrl: 'https://custody.example.com/api',
      custodyMerchantId: '300123',
      custodyCallbackUrl: 'https://fairex.example.com/api/custody/callback',
      custodyCallbackMaxAgeSeconds: 120,
      depositXpubs: `bitcoin=${'x'.repeat(111)}`,
      flashPairs: 'BTC/USDT,ETH/USDT',
      flashFeePpm: 1250,
      microReserve: 250_000,
      p2pWindowSeconds: 30,
      p2pMinAccountAgeDays: 3,
      p2pMinCompletedTrades: 5,
      snapshotEveryCommands: 20_000,
      snapshotEveryBytes: 4 * 1024 * 1024,
      snapshotsKept: 5,
      projectorMaxLag: 20_000,
      readYourWritesWaitMs: 1_500,
      journalFsync: false,
      embeddedStoreThread: false,
      engineReplica: false,
      journalRetention: 'delete',
      journalRetentionHours: 48,
      logLevel: 'debug',
      webDist: '/srv/web',
    });
  });

  it('reads TRUST_PROXY as proxy addresses, never as a hop count that would trust any peer', () => {
    expect(loadConfig({ TRUST_PROXY: 'loopback' }).trustProxy).toEqual(['loopback']);
    expect(() => loadConfig({ TRUST_PROXY: '1' })).toThrow(ConfigError);
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' })).toMatchObject({ port: 8080, databaseUrl: undefined });
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['TRUST_PROXY', 'true'],
    ['TRUST_PROXY', '2'],
    ['TRUST_PROXY', '10.0.0.0/33'],
    ['TRUST_PROXY', '10.0.0.1,proxy.example.com'],
    ['DATABASE_URL', 'mysql://localhost/db'],
    ['DATABASE_URL', 'not a url'],
    ['REDIS_URL', 'http://localhost:6379'],
    ['CORS_ORIGINS', 'https://trade.example.com/app'],
    ['CORS_ORIGINS', 'trade.example.com'],
    ['CORS_ORIGINS', 'https://ok.example.com,ftp://files.example.com'],
    ['SMTP_URL', 'localhost:25'],
    ['SMS_URL', 'ftp://sms.example.com'],
    ['INVITE_CODE_REQUIRED', 'maybe'],
    ['SESSION_TTL_HOURS', '99999'],
    ['CODE_SENDS_PER_HOUR', '1.5'],
    ['PRICE_SOURCE', 'coinbase'],
    ['PRICE_SOURCE', 'binance,binance'],
    ['PRICE_MIN_SOURCES', '0'],
    ['PRICE_STALE_MS', '50'],
    ['PRICE_HEAD_INTERVAL_MS', '60s'],
    ['SEED', '-3'],
    ['DEMO', 'maybe'],
    ['MARKET_MAKER', 'yes'],
    ['PRICE_FEED_URL', 'https://stream.example.com'],
    ['CUSTODY_API_KEY', 'short'],
    ['CUSTODY_API_URL', 'ftp://custody.example.com'],
    ['CUSTODY_CALLBACK_MAX_AGE_SECONDS', '5'],
    ['DEPOSIT_XPUBS', 'bitcoin'],
    ['FLASH_PAIRS', 'BTC-USDT'],
    ['FLASH_FEE_PERCENT', '11'],
    ['FLASH_FEE_PERCENT', '0.12345'],
    ['SNAPSHOT_EVERY_COMMANDS', '-1'],
    ['SNAPSHOTS_KEPT', 'all'],
    ['JOURNAL_FSYNC', 'sometimes'],
    ['EMBEDDED_STORE_THREAD', 'maybe'],
    ['ENGINE_REPLICA', 'yes'],
    ['JOURNAL_RETENTION', 'forever'],
    ['LOG_ORIGIN', 'my log'],
    ['LOG_ORIGIN', 'a+b'],
    ['LOG_CHECKPOINT_INTERVAL_MS', 'often'],
    ['LOG_WITNESSES', 'witness.test/w1+00000000+BP0XJDhaoMdbZPt4zWAvodmR/ev3axPFjtcC6sg16fYY'],
    ['LOG_LEVEL', 'loud'],
  ])('names the bad variable %s=%s without echoing its value', (name, value) => {
    try {
      loadConfig({ [name]: value });
      expect.unreachable('loadConfig accepted a bad value');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toHaveLength(1);
      expect((error as Error).message).toContain(name);
      expect((error as Error).message).not.toContain(value);
    }
  });

  it('reports every bad variable at once', () => {
    expect(() => loadConfig({ PORT: 'x', LOG_LEVEL: 'y' })).toThrow(/PORT[\s\S]*LOG_LEVEL/);
  });

  it('documents every variable in one table', () => {
    expect(configTable.map((row) => row.name)).toEqual([
      'PORT',
      'HOST',
      'TRUST_PROXY',
      'DATA_DIR',
      'DATABASE_URL',
      'REDIS_URL',
      'CORS_ORIGINS',
      'SMTP_URL',
      'MAIL_FROM',
      'SMS_URL',
      'SMS_TOKEN',
      'INVITE_CODE_REQUIRED',
      'SESSION_TTL_HOURS',
      'CODE_SENDS_PER_HOUR',
      'CODE_SENDS_PER_IP_PER_HOUR',
      'PRICE_SOURCE',
      'PRICE_MIN_SOURCES',
      'PRICE_STALE_MS',
      'PRICE_HEAD_INTERVAL_MS',
      'LOG_ORIGIN',
      'LOG_CHECKPOINT_INTERVAL_MS',
      'LOG_WITNESSES',
      'DEMO',
      'SEED',
      'MARKET_MAKER',
      'PRICE_FEED_URL',
      'PRICE_HISTORY_URL',
      'CUSTODY_API_KEY',
      'CUSTODY_API_URL',
      'CUSTODY_MERCHANT_ID',
      'CUSTODY_CALLBACK_URL',
      'CUSTODY_CALLBACK_MAX_AGE_SECONDS',
      'DEPOSIT_XPUBS',
      'FLASH_PAIRS',
      'FLASH_FEE_PERCENT',
      'MICRO_RESERVE',
      'P2P_WINDOW_SECONDS',
      'P2P_MIN_ACCOUNT_AGE_DAYS',
      'P2P_MIN_COMPLETED_TRADES',
      'SNAPSHOT_EVERY_COMMANDS',
      'SNAPSHOT_EVERY_MB',
      'JOURNAL_FSYNC',
      'EMBEDDED_STORE_THREAD',
      'ENGINE_REPLICA',
      'SNAPSHOTS_KEPT',
      'PROJECTOR_MAX_LAG',
      'READ_YOUR_WRITES_WAIT_MS',
      'JOURNAL_RETENTION',
      'JOURNAL_RETENTION_HOURS',
      'LOG_LEVEL',
      'WEB_DIST',
    ]);
    for (const row of configTable) expect(configMarkdownTable()).toContain(`\`${row.name}\``);
  });

  it('stops a start with DEMO=off and a fixed SEED, naming it', () => {
    expect(loadConfig({ DEMO: 'off' })).toMatchObject({ demo: false, seed: undefined });
    expect(() => loadConfig({ DEMO: 'off', SEED: '7' })).toThrow(ConfigError);
    try {
      loadConfig({ DEMO: 'off', SEED: '7' });
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([
        expect.stringMatching(/^SEED must be unset when DEMO=off/) as unknown as string,
      ]);
    }
    expect(loadConfig({ DEMO: 'on', SEED: '7' }).seed).toBe(7);
  });

  it('matches the table in docs/operations.md', () => {
    const text = readFileSync(resolve(import.meta.dirname, '../../../docs/operations.md'), 'utf8');
    const table = text.slice(
      text.indexOf('<!-- config-table:start -->'),
      text.indexOf('<!-- config-table:end -->'),
    );
    const rows = table
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .map((line) =>
        line
          .split('|')
          .slice(1, -1)
          .map((cell) => cell.trim()),
      );
    expect(rows).toEqual(
      configTable.map((row) => [
        `\`${row.name}\``,
        row.default === undefined ? '(unset)' : `\`${row.default}\``,
        row.meaning,
      ]),
    );
  });
});
