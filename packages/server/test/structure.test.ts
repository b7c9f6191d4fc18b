// The server's structure rules (docs/adding-an-area.md, part 2), checked on the source text:
// - route files only consume: they construct no service, start no push or timer, listen to no committed
//   batch and hold no SQL (an area's plugin and repository do that, and the plugin decorates the app);
// - the engine runner imports no product area: it is handed its projectors;
// - no import cycles in server/src, type-only imports included;
// - the administrator calls' input schemas and replies are declared once, in the shared contract
//   (shared/src/api/backoffice.ts and admin.ts): their route files (/api/backoffice and /api/admin) build no
//   schema, and the console reads every reply as a type of the contract;
// - no reply or input type of the contract (shared/src/api/*.ts) is declared again, under the same name,
//   anywhere in server/src or web/src.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../src');
/** The folder of the workspace packages (server, shared, web, engine). */
const PACKAGES = resolve(SRC, '../..');

function sourceFiles(folder: string): string[] {
  const files: string[] = [];
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) files.push(...sourceFiles(path));
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts')) files.push(path);
  }
  return files;
}

/** The text without comments (line and block), so that a rule's example in a comment does not count. */
function code(path: string): string {
  return readFileSync(path, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

/** Relative imports and re-exports of a file (type-only ones too), resolved to absolute paths. */
function importsOf(path: string): string[] {
  const pattern = /^\s*(?:import|export)\s[^;]*?from\s+'(\.[^']+)'/gm;
  return [...code(path).matchAll(pattern)].map((match) => resolve(dirname(path), match[1] as string));
}

/** Constructors a route may call: values, errors and per-request bookkeeping, not services. */
const VALUE_CLASSES = new Set([
  'AppError',
  'Date',
  'Error',
  'Map',
  'RangeError',
  'Set',
  'TypeError',
  'URL',
  'URLSearchParams',
  'WeakMap',
]);

/** Calls that build or start an area's machinery. */
const FORBIDDEN_IN_ROUTES: [RegExp, string][] = [
  [/\bbuild\w*Services?\s*\(/, 'builds services'],
  [/\bcreate\w*(?:Service|Services|Runner|Repository|Pushes|Scheduler)\s*\(/, 'creates a service'],
  [/\bstart\w*(?:Pushes|Scheduler)\s*\(/, 'starts a push or a job'],
  [/\bwalletServicesOf\s*\(/, 'uses a service locator'],
  [/\.onCommitted\s*\(/, 'listens to committed batches'],
  [/\bset(?:Interval|Timeout)\s*\(/, 'starts a timer'],
  // SQL belongs to the area's repository module; the health check's own ping is the one exception.
  [/\.query\s*(?:<[\s\S]*?>)?\s*\(\s*['"`]/, 'holds SQL'],
];

/** Files allowed to break one rule above, and which. */
const EXCEPTIONS = new Map([['api/health/index.ts', 'holds SQL']]);

describe('server structure', () => {
  const routeFiles = sourceFiles(join(SRC, 'routes'));

  it('finds the route files', () => {
    expect(routeFiles.length).toBeGreaterThan(10);
  });

  it('no route file constructs a service, starts a push, a timer or a batch listener', () => {
    const problems: string[] = [];
    for (const path of routeFiles) {
      const text = code(path);
      for (const match of text.matchAll(/\bnew\s+([A-Z]\w*)/g)) {
        if (!VALUE_CLASSES.has(match[1] as string)) problems.push(`${relative(SRC, path)}: new ${match[1]}(`);
      }
      for (const [pattern, what] of FORBIDDEN_IN_ROUTES) {
        if (EXCEPTIONS.get(relative(join(SRC, 'routes'), path)) === what) continue;
        if (pattern.test(text)) problems.push(`${relative(SRC, path)} ${what}: ${pattern.source}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('the engine runner imports no product area', () => {
    const runnerFolder = join(SRC, 'engine-runner');
    const allowed = ['engine-runner', 'store', 'http', 'config.ts'].map((name) => join(SRC, name));
    const problems: string[] = [];
    for (const path of sourceFiles(runnerFolder)) {
      for (const target of importsOf(path)) {
        if (!allowed.some((prefix) => target === prefix || target.startsWith(prefix + '/')))
          problems.push(`${relative(SRC, path)} imports ${relative(SRC, target)}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('has no import cycles', () => {
    const files = sourceFiles(SRC);
    const graph = new Map(files.map((path) => [path, importsOf(path)]));
    const state = new Map<string, 'open' | 'done'>();
    const stack: string[] = [];
    const cycles: string[] = [];
    const visit = (path: string): void => {
      state.set(path, 'open');
      stack.push(path);
      for (const target of graph.get(path) ?? []) {
        if (!graph.has(target)) continue;
        if (state.get(target) === 'open') {
          const cycle = [...stack.slice(stack.indexOf(target)), target];
          cycles.push(cycle.map((file) => relative(SRC, file)).join(' -> '));
        } else if (state.get(target) === undefined) visit(target);
      }
      stack.pop();
      state.set(path, 'done');
    };
    for (const path of files) if (state.get(path) === undefined) visit(path);
    expect(cycles).toEqual([]);
  });

  it('administrator route files take their input schemas from the shared contract', () => {
    const problems: string[] = [];
    const files = [
      ...sourceFiles(join(SRC, 'routes/api/backoffice')),
      ...sourceFiles(join(SRC, 'routes/api/admin')),
    ];
    expect(files.map((path) => relative(SRC, path))).toContain('routes/api/admin/index.ts');
    for (const path of files) {
      const text = code(path);
      if (/^\s*import\s+\{[^}]*\}\s+from\s+'zod'/m.test(text))
        problems.push(`${relative(SRC, path)} imports zod`);
      if (/\bz\.(?:object|string|record|array)\s*\(/.test(text))
        problems.push(`${relative(SRC, path)} builds a schema`);
    }
    expect(problems).toEqual([]);
  });

  it('the contract replies and inputs are declared once, in the shared contract', () => {
    const contractFolder = resolve(PACKAGES, 'shared/src/api');
    const names = new Set<string>();
    for (const path of sourceFiles(contractFolder))
      for (const match of readFileSync(path, 'utf8').matchAll(/^export (?:interface|type) (\w+)/gm))
        names.add(match[1] as string);
    expect([...names]).toEqual(
      expect.arrayContaining([
        // back office
        'UserDetail',
        'UserOrderLine',
        'LedgerLine',
        'WithdrawalDetail',
        'SettingsReply',
        'SettingField',
        'SettingRow',
        'EnvironmentSetting',
        'MarketsReply',
        'MarketMakerSettings',
        'CurrenciesReply',
        'ChainsReply',
        'AdminsReply',
        'NewsCategoriesReply',
        // /api/admin
        'AdminLoginReply',
        'AdminSetupReply',
        // the products' consoles
        'LeverAdminPairsReply',
        'LeverInsuranceReply',
        'MicroProof',
        // the site
        'HomeFiguresReply',
        'ActivityReply',
        'NewsDetailReply',
        'NewsListEntry',
      ]),
    );
    // A declaration, not a name in an import list: `interface Name` or `type Name =` (type parameters allowed).
    const declaration = /^\s*(?:export\s+)?(?:interface\s+(\w+)\b|type\s+(\w+)\s*(?:<[^=]*>)?\s*=)/gm;
    const WEB = resolve(PACKAGES, 'web/src');
    const problems: string[] = [];
    for (const path of [...sourceFiles(SRC), ...sourceFiles(WEB), ...tsxFiles(WEB)]) {
      for (const match of code(path).matchAll(declaration)) {
        const name = (match[1] ?? match[2]) as string;
        if (names.has(name)) problems.push(`${relative(PACKAGES, path)} declares ${name}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('the console reads every administrator reply as a type of the shared contract', () => {
    const ADMIN = resolve(PACKAGES, 'web/src/admin');
    /** Names a file imports or re-exports from the shared contract (under their local name). */
    const contractNames = (text: string): Set<string> => {
      const found = new Set<string>();
      const pattern = /^\s*(?:import|export)\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'@fairex\/shared[^']*'/gm;
      for (const match of text.matchAll(pattern))
        for (const part of (match[1] as string).split(',')) {
          const local = part
            .trim()
            .replace(/^type\s+/, '')
            .split(/\s+as\s+/)
            .pop();
          if (local) found.add(local);
        }
      return found;
    };
    /** Names a file imports from a console module that takes them from the contract. */
    const viaConsole = (path: string, text: string): Set<string> => {
      const found = new Set<string>();
      const pattern = /^\s*import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'(\.[^']+)'/gm;
      for (const match of text.matchAll(pattern)) {
        const target = resolve(dirname(path), match[2] as string);
        if (!target.startsWith(ADMIN) && !target.endsWith('data/admin-api.ts')) continue;
        const exported = contractNames(code(target));
        for (const part of (match[1] as string).split(',')) {
          const local = part
            .trim()
            .replace(/^type\s+/, '')
            .split(/\s+as\s+/)
            .pop();
          if (local && exported.has(local)) found.add(local);
        }
      }
      return found;
    };
    const files = [...sourceFiles(ADMIN), ...tsxFiles(ADMIN)];
    const problems: string[] = [];
    let reads = 0;
    for (const path of files) {
      const text = code(path);
      const allowed = new Set([...contractNames(text), ...viaConsole(path, text)]);
      for (const match of text.matchAll(/\badminApi\.(?:get|post)<([^(]*?)>\(/g)) {
        reads += 1;
        const argument = (match[1] as string).trim();
        const where = `${relative(ADMIN, path)}: adminApi<${argument}>`;
        if (argument.includes('{')) problems.push(`${where} spells the reply out`);
        else if (/\bunknown\b/.test(argument)) problems.push(`${where} reads the reply as unknown`);
        for (const [name] of argument.matchAll(/\b[A-Z]\w+/g))
          if (!allowed.has(name)) problems.push(`${where}: ${name} is not the contract's`);
      }
    }
    expect(reads).toBeGreaterThan(20);
    expect(problems).toEqual([]);
  });
});

function tsxFiles(folder: string): string[] {
  const files: string[] = [];
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) files.push(...tsxFiles(path));
    else if (name.endsWith('.tsx') && !name.endsWith('.test.tsx')) files.push(path);
  }
  return files;
}
