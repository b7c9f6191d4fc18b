// The price record end to end: a server of the test's own (heads every 2 s) journals samples and
// publishes heads; `npm run verify:prices` checks it through the public calls and exits 0; the same check
// through a stand-in that changes one byte of one sample on the way exits 1 and names the sample.
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './support/paths.ts';
import { newDataDir, nodeBinary, startServer, type ServerProcess } from './support/server-process.ts';

let server: ServerProcess;
let tamperer: Server | undefined;

beforeAll(async () => {
  server = await startServer(await newDataDir(), {
    MARKET_MAKER: 'off',
    PRICE_HEAD_INTERVAL_MS: '2000',
  });
}, 120_000);

afterAll(async () => {
  await new Promise<void>((resolve) =>
    tamperer === undefined ? resolve() : tamperer.close(() => resolve()),
  );
  await server?.stop();
});

async function heads(symbol: string): Promise<{ seq: number; hash: string }[]> {
  const response = await fetch(`${server.baseURL}/api/price/heads?symbol=${encodeURIComponent(symbol)}`);
  const body = (await response.json()) as {
    type: string;
    message: { heads: { seq: number; hash: string }[] };
  };
  expect(body.type).toBe('ok');
  return body.message.heads;
}

async function verify(base: string, symbol?: string): Promise<{ code: number | null; output: string }> {
  const child = spawn(
    nodeBinary(),
    ['scripts/verify-prices.ts', base, ...(symbol === undefined ? [] : [symbol])],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, output };
}

/** Forwards to the server, changing the last digit of the mark price of sample seq 3 in samples replies. */
async function startTamperer(): Promise<string> {
  tamperer = createServer(async (request, response) => {
    const upstream = await fetch(`${server.baseURL}${request.url ?? '/'}`);
    let text = await upstream.text();
    if ((request.url ?? '').startsWith('/api/price/samples')) {
      const body = JSON.parse(text) as { message: { samples: { seq: number; mark_price: string }[] } };
      for (const sample of body.message.samples) {
        if (sample.seq !== 3) continue;
        sample.mark_price = sample.mark_price.replace(/\d$/, (digit) => String((Number(digit) + 1) % 10));
      }
      text = JSON.stringify(body);
    }
    response.writeHead(upstream.status, { 'content-type': 'application/json' });
    response.end(text);
  });
  await new Promise<void>((resolve) => tamperer?.listen(0, '127.0.0.1', () => resolve()));
  const address = tamperer.address();
  if (typeof address !== 'object' || address === null) throw new Error('no address');
  return `http://127.0.0.1:${address.port}`;
}

describe('the public price record', () => {
  it('publishes heads that the verifier checks, and the verifier refuses a changed sample', async () => {
    const deadline = Date.now() + 60_000;
    // Two heads, the newer past sample 3 (the one the stand-in changes), so the verifier reaches it: with
    // the first sample a head, the second head can be as early as sample 2 on a slow start.
    const ready = (list: { seq: number }[]) => list.length >= 2 && list.some((head) => head.seq > 3);
    while (!ready(await heads('BTC/USDT'))) {
      if (Date.now() > deadline) throw new Error(`no head past sample 3 within 60 s:\n${server.log()}`);
      await sleep(500);
    }
    const honest = await verify(server.baseURL);
    expect(honest.output).toContain('the price record verifies');
    expect(honest.output).toMatch(/ok {2}BTC\/USDT: \d+ samples chained from seq 1/);
    expect(honest.code).toBe(0);

    const tampered = await verify(await startTamperer(), 'BTC/USDT');
    expect(tampered.output).toMatch(
      /MISMATCH {2}BTC\/USDT sample seq 3: hash [0-9a-f]{64} does not match its record/,
    );
    expect(tampered.code).toBe(1);
  }, 120_000);
});
