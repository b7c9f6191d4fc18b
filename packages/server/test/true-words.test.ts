// Words that are true: no page or doc says that a product the exchange has built is "not built", "coming
// soon" or "being built" (or the same in Chinese, Korean and Japanese). Read are the README, every page of
// docs/, the seeded notices, news and FAQ in all five languages, the web app's and the back office's
// translations and the server's messages. A sentence is flagged when it names a built product and says it
// is not there yet; each language's words are checked against each text, whatever its language.
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { en } from '../src/news/seed/content/en.ts';
import { hk } from '../src/news/seed/content/hk.ts';
import { jp } from '../src/news/seed/content/jp.ts';
import { kr } from '../src/news/seed/content/kr.ts';
import { zh } from '../src/news/seed/content/zh.ts';
import type { SeedFacts, SeedLanguagePack } from '../src/news/seed/items.ts';

const ROOT = resolve(import.meta.dirname, '../../..');

/** The products that are built, as each language names them. */
const PRODUCTS = [
  /\blever(?:age|aged)?\b/i,
  /\bseconds?[- ]contracts?\b/i,
  /\bICO\b/,
  /\btoken (?:sales?|subscriptions?)\b/i,
  /\bmining\b/i,
  /\bstaking\b/i,
  /\bP2P\b/i,
  /\bAPI keys?\b/i,
  /杠杆|槓桿|秒合约|秒合約|代币|代幣|矿机|礦機|挖矿|挖礦|质押|質押|API ?密钥|API ?密鑰/,
  /레버리지|초 계약|토큰 세일|채굴|스테이킹|API 키/,
  /レバレッジ|秒取引|トークンセール|マイニング|ステーキング|API ?キー/,
];

/** Saying that something is not there yet. */
const NOT_BUILT = [
  /\bnot (?:yet )?built\b/i,
  /\bnot built yet\b/i,
  /\bcoming soon\b/i,
  /\bbeing built\b/i,
  /\bunder construction\b/i,
  /建设中|建設中|尚未建成|即将推出|即將推出|敬请期待|敬請期待|开发中|開發中|尚未上线|尚未上線/,
  /개발 중|준비 중|곧 출시|출시 예정/,
  /開発中|準備中|近日公開|まもなく/,
];

/** The sentences of a text, tags and Markdown line breaks removed. */
function sentences(text: string): string[] {
  return text
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s*\n\s*/g, ' ')
    .split(/(?<=[.!?。！？])\s+|(?<=[。！？])/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence !== '');
}

/** The sentences of `text` that call a built product not built. */
export function falseClaims(text: string): string[] {
  return sentences(text).filter(
    (sentence) =>
      NOT_BUILT.some((pattern) => pattern.test(sentence)) &&
      PRODUCTS.some((pattern) => pattern.test(sentence)),
  );
}

function jsonStrings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(jsonStrings);
  return [];
}

const FACTS: SeedFacts = {
  markets: [{ symbol: 'BTC/USDT', makerPercent: '0.1', takerPercent: '0.1' }],
  currencies: [{ code: 'USDT', name: 'Tether', networks: ['TRC20'], withdrawMin: '1', withdrawFee: '1' }],
};

function seedTexts(pack: SeedLanguagePack): string[] {
  return Object.values(pack.items).flatMap((item) => [
    item.title,
    item.abstract,
    typeof item.content === 'function' ? item.content(FACTS) : item.content,
  ]);
}

/** Every text to check, by where it is. */
function texts(): [where: string, text: string][] {
  const found: [string, string][] = [['README.md', readFileSync(resolve(ROOT, 'README.md'), 'utf8')]];
  for (const name of readdirSync(resolve(ROOT, 'docs')).filter((file) => file.endsWith('.md')))
    found.push([`docs/${name}`, readFileSync(resolve(ROOT, 'docs', name), 'utf8')]);
  for (const [language, pack] of Object.entries({ en, zh, hk, kr, jp }))
    for (const text of seedTexts(pack)) found.push([`seeded news (${language})`, text]);
  for (const folder of ['packages/web/src/i18n/locales', 'packages/web/src/admin/locales']) {
    for (const name of readdirSync(resolve(ROOT, folder)).filter((file) => file.endsWith('.json'))) {
      const strings = jsonStrings(JSON.parse(readFileSync(resolve(ROOT, folder, name), 'utf8')));
      for (const text of strings) found.push([`${folder}/${name}`, text]);
    }
  }
  const messages = resolve(ROOT, 'packages/shared/src/i18n/messages');
  for (const name of readdirSync(messages).filter((file) => file.endsWith('.ts')))
    found.push([`server messages ${name}`, readFileSync(resolve(messages, name), 'utf8')]);
  return found;
}

describe('words that are true', () => {
  it('flags a sentence that calls a built product not built, in every language', () => {
    expect(
      falseClaims('Leveraged trading, seconds contracts and staking are specified but **not built yet**.'),
    ).toHaveLength(1);
    expect(
      falseClaims('<li>Leveraged contracts are still being built; they open here once they work.</li>'),
    ).toHaveLength(1);
    expect(falseClaims('P2P trade: coming soon!')).toHaveLength(1);
    expect(falseClaims('杠杆合约仍在建设中，完成后才会在此开放。')).toHaveLength(1);
    expect(falseClaims('槓桿合約仍在建設中。')).toHaveLength(1);
    expect(falseClaims('레버리지 계약은 아직 개발 중입니다.')).toHaveLength(1);
    expect(falseClaims('レバレッジ取引は開発中です。')).toHaveLength(1);
    // A sentence about something else, or a product said to exist, is fine.
    expect(falseClaims('Your latest changes are still being recorded.')).toEqual([]);
    expect(falseClaims('Leveraged contracts are built. A pool wake-up per batch: not built.')).toEqual([]);
    expect(falseClaims('该功能暂未开放。')).toEqual([]);
  });

  it('finds no such sentence in the README, the docs, the seeded texts or the translations', () => {
    const claims = texts().flatMap(([where, text]) => falseClaims(text).map((claim) => `${where}: ${claim}`));
    expect(claims).toEqual([]);
  });
});
