// The performance targets of journal-first commits and stall-free state (issue #24), read from the figures
// of the sections that measure them in the same `npm run bench` run, each with a met / not met line. A
// target whose section did not run (or failed) says so instead of a verdict.
type Figures = Record<string, number | string>;

export interface TargetLine {
  name: string;
  /** What was measured, in words and figures. */
  measured: string;
  verdict: 'met' | 'NOT met' | 'not measured';
}

/** "a / b / c" figures (latency p50 / p99 / max): the n-th number. */
function nth(value: number | string | undefined, index: number): number {
  if (value === undefined) return Number.NaN;
  return Number(String(value).split('/')[index]?.trim());
}

function figure(figures: Figures | undefined, key: string): number | string | undefined {
  return figures?.[key];
}

function verdict(ok: boolean | undefined): TargetLine['verdict'] {
  if (ok === undefined) return 'not measured';
  return ok ? 'met' : 'NOT met';
}

/** Lines for the targets; `results` holds each section's figures by its key (absent: not run or failed). */
export function targetLines(results: ReadonlyMap<string, Figures>): TargetLine[] {
  const lines: TargetLine[] = [];
  const http = results.get('http');
  const bare = figure(http, 'bare fastify route requests/s');
  const bareBounded = figure(http, 'bare fastify route at 64 conns requests/s');
  for (const store of ['pglite', 'postgres']) {
    const rate = figure(http, `${store}: bounded (64 conns) orders/s`);
    const latency = figure(http, `${store}: bounded latency p50 / p99 / max ms`);
    const ratio = Number(figure(http, `${store}: bounded ratio to the bare route`));
    const p99 = nth(latency, 1);
    const measured = rate !== undefined && Number.isFinite(ratio) && Number.isFinite(p99);
    lines.push({
      name: `durable orders at 64 connections on ${store === 'pglite' ? 'PGlite' : 'PostgreSQL'}: ratio >= 0.4 with p99 < 20 ms`,
      measured: measured
        ? `${rate} orders/s (bare route ${bare}/s), ratio ${ratio}, p50 ${nth(latency, 0)} ms, p99 ${p99} ms; ` +
          `the bare route at 64 conns ${bareBounded}/s, ratio to it ${figure(http, `${store}: bounded ratio to the bare route at 64 conns`)}`
        : store === 'postgres' && figure(http, 'postgres') !== undefined
          ? String(figure(http, 'postgres'))
          : 'the http section did not run',
      verdict: verdict(measured ? ratio >= 0.4 && p99 < 20 : undefined),
    });
    const maxLatency = figure(http, `${store}: max-rate latency p50 / p99 / max ms`);
    const maxP99 = nth(maxLatency, 1);
    const maxRate = figure(http, `${store}: max-rate orders/s (ok answers)`);
    lines.push({
      name: `durable orders at maximum load on ${store === 'pglite' ? 'PGlite' : 'PostgreSQL'}: p99 <= 100 ms`,
      measured: Number.isFinite(maxP99)
        ? `${maxRate} orders/s, ratio ${figure(http, `${store}: ratio to the bare route`)}, p50 ${nth(maxLatency, 0)} ms, p99 ${maxP99} ms`
        : 'not measured',
      verdict: verdict(Number.isFinite(maxP99) ? maxP99 <= 100 : undefined),
    });
  }
  const stall = results.get('stall');
  const hashMs = Number(figure(stall, 'replica: longest event-loop stall ms'));
  const catchUpMs = Number(figure(stall, 'projector catch-up: longest event-loop stall ms'));
  const stallMs = Math.max(hashMs, Number.isFinite(catchUpMs) ? catchUpMs : 0);
  const floor = figure(stall, 'no hash or snapshot due: longest event-loop stall ms');
  lines.push({
    name: 'longest event-loop stall <= 50 ms with 1,000,000 resting orders (hash, snapshot, projector catch-up)',
    measured: Number.isFinite(hashMs)
      ? `hash and snapshot ${hashMs} ms (the main thread's own CPU in its longest turn ` +
        `${figure(stall, 'replica: main-thread CPU in its longest turn ms')} ms); projector catch-up ` +
        `${Number.isFinite(catchUpMs) ? catchUpMs : 'n/a'} ms (own CPU ` +
        `${figure(stall, 'projector catch-up: main-thread CPU in its longest turn ms') ?? 'n/a'} ms); ` +
        `with nothing due ${floor} ms`
      : 'the stall section did not run',
    verdict: verdict(Number.isFinite(hashMs) ? stallMs <= 50 : undefined),
  });
  const fanout = results.get('fanout');
  const fanoutRatio = Number(figure(fanout, 'app 10000 p99 / bare ws p99'));
  lines.push({
    name: 'fan-out at 10,000 clients within 1.2x of the bare ws p99',
    measured: Number.isFinite(fanoutRatio)
      ? `p99 ${figure(fanout, 'app 10000: delivery latency p99 (ms)')} ms against ${figure(fanout, 'bare ws 10000: delivery latency p99 (ms)')} ms: ${fanoutRatio}x`
      : 'the fanout section did not run',
    verdict: verdict(Number.isFinite(fanoutRatio) ? fanoutRatio <= 1.2 : undefined),
  });
  const halfP99 = Number(figure(fanout, 'app 5000: delivery latency p99 (ms)'));
  lines.push({
    name: 'fan-out at 5,000 clients: p99 < 100 ms',
    measured: Number.isFinite(halfP99)
      ? `p99 ${halfP99} ms (a bare ws broadcast to the same clients: ${figure(fanout, 'bare ws 5000: delivery latency p99 (ms)') ?? '?'} ms)`
      : 'the fanout section did not run',
    verdict: verdict(Number.isFinite(halfP99) ? halfP99 < 100 : undefined),
  });
  const startup = results.get('startup');
  const restart = figure(startup, 'restart after SIGKILL with the no-snapshot journal (ms)');
  const restartMs = Number(restart);
  const timedOut = typeof restart === 'string' && restart.startsWith('over');
  lines.push({
    name: 'restart after kill -9 serves within 3 s with 1,000,000 commands since the last snapshot',
    measured: Number.isFinite(restartMs)
      ? `${restartMs} ms, ${figure(startup, 'no-snapshot journal: commands replayed')} commands replayed ` +
        `(ms: ${figure(startup, 'no-snapshot journal: restart phases (ms)') ?? 'phases not logged'})`
      : timedOut
        ? `did not serve: ${restart} ms`
        : 'the startup section did not run',
    verdict: verdict(Number.isFinite(restartMs) ? restartMs < 3_000 : timedOut ? false : undefined),
  });
  return lines;
}

/** The figures #24 asks to see in one run that are not targets: CPU per order, sessions, projector lag. */
export function reportLines(results: ReadonlyMap<string, Figures>): [string, string][] {
  const http = results.get('http');
  if (http === undefined) return [];
  const lines: [string, string][] = [];
  for (const store of ['pglite', 'postgres']) {
    for (const load of ['max-rate', 'bounded']) {
      const cpu = figure(http, `${store}: ${load} CPU µs per order`);
      if (cpu !== undefined) lines.push([`${store} ${load} CPU µs per order`, String(cpu)]);
    }
    const sessions = figure(http, `${store}: max-rate session lookups: cache hits / expired / not cached`);
    if (sessions !== undefined)
      lines.push([`${store} session lookups, hits / expired / not cached`, String(sessions)]);
    const lag = figure(http, `${store}: projector lag at the end of the max-rate load`);
    if (lag !== undefined) lines.push([`${store} projector lag`, String(lag)]);
  }
  return lines;
}
