// The currencies and markets a fresh installation starts with. Ids follow the specifications (BTC 1, ETH 2,
// USDT 3; the web client falls back to USDT 3 / BTC 1). Amounts are written as decimal strings and parsed at
// the currency's scale, so a typo cannot slip in a wrong power of ten.
//
// Scales: 8 decimals for BTC, ETH, DOGE, LINK and LTC, 6 for USDT, XRP and TRX. ETH and LINK use 8 instead
// of their on-chain 18 because amounts are signed 64-bit integers; 8 decimals are finer than any amount
// the exchange trades or pays out. udun_id is the SLIP-44 coin type of the currency's main network; any
// value above -1 turns deposits and withdrawals on.
import type { CurrencyChain, LocalizedText } from '../store/schema/index.ts';

export interface DemoCurrency {
  id: number;
  code: string;
  name: string;
  scale: number;
  udunId: number;
  chains: CurrencyChain[];
  withdrawMin: string;
  withdrawFee: string;
  descriptions: LocalizedText;
}

export interface DemoMarket {
  id: number;
  base: string;
  quote: string;
  /** Decimals of a price, and therefore the price tick (one unit at this scale). */
  priceScale: number;
  /** Quantity step, which is also the minimum order size, as a decimal of the base currency. */
  lotSize: string;
  /** Minimum order value, as a decimal of the quote currency. */
  minNotional: string;
  makerFeePpm: number;
  takerFeePpm: number;
  /** Base currency per lot of a leveraged contract, as a decimal. */
  leverShareSize: string;
}

export const DEMO_CURRENCIES: DemoCurrency[] = [
  {
    id: 1,
    code: 'BTC',
    name: 'Bitcoin',
    scale: 8,
    udunId: 0,
    chains: [{ type: 0, code: 'BTC', network: 'bitcoin' }],
    withdrawMin: '0.001',
    withdrawFee: '0.0002',
    descriptions: {
      en: 'Bitcoin is the first decentralised digital currency, launched in 2009. Its supply is capped at 21 million coins.',
      zh: '比特币是第一种去中心化的数字货币，于 2009 年推出，总量上限为 2100 万枚。',
      hk: '比特幣是第一種去中心化的數碼貨幣，於 2009 年推出，總量上限為 2100 萬枚。',
      kr: '비트코인은 2009년에 출시된 최초의 탈중앙화 디지털 화폐이며, 총 발행량은 2,100만 개로 제한됩니다.',
      jp: 'ビットコインは 2009 年に登場した最初の分散型デジタル通貨で、発行上限は 2,100 万枚です。',
    },
  },
  {
    id: 2,
    code: 'ETH',
    name: 'Ethereum',
    scale: 8,
    udunId: 60,
    chains: [{ type: 0, code: 'ERC20', network: 'ethereum' }],
    withdrawMin: '0.01',
    withdrawFee: '0.002',
    descriptions: {
      en: 'Ether is the native currency of Ethereum, a public blockchain that runs smart contracts.',
      zh: '以太币是以太坊的原生货币，以太坊是一条可运行智能合约的公有区块链。',
      hk: '以太幣是以太坊的原生貨幣，以太坊是一條可運行智能合約的公有區塊鏈。',
      kr: '이더는 스마트 계약을 실행하는 퍼블릭 블록체인인 이더리움의 기본 화폐입니다.',
      jp: 'イーサはスマートコントラクトを実行できるパブリックブロックチェーン、イーサリアムのネイティブ通貨です。',
    },
  },
  {
    id: 3,
    code: 'USDT',
    name: 'Tether USD',
    scale: 6,
    udunId: 195,
    chains: [
      { type: 0, code: 'TRC20', network: 'tron' },
      { type: 1, code: 'ERC20', network: 'ethereum' },
    ],
    withdrawMin: '10',
    withdrawFee: '1',
    descriptions: {
      en: 'Tether (USDT) is a stablecoin issued to track the US dollar one to one, available on several blockchains.',
      zh: '泰达币（USDT）是与美元 1:1 挂钩的稳定币，发行于多条区块链上。',
      hk: '泰達幣（USDT）是與美元 1:1 掛鈎的穩定幣，發行於多條區塊鏈上。',
      kr: '테더(USDT)는 미국 달러와 1:1로 연동되도록 발행되는 스테이블코인으로, 여러 블록체인에서 사용할 수 있습니다.',
      jp: 'テザー（USDT）は米ドルと 1 対 1 で連動するよう発行されるステーブルコインで、複数のブロックチェーンで利用できます。',
    },
  },
  {
    id: 4,
    code: 'XRP',
    name: 'XRP',
    scale: 6,
    udunId: 144,
    chains: [{ type: 0, code: 'XRP', network: 'xrpl' }],
    withdrawMin: '20',
    withdrawFee: '0.25',
    descriptions: {
      en: 'XRP is the native currency of the XRP Ledger, designed for fast and low-cost payments.',
      zh: 'XRP 是 XRP Ledger 的原生货币，专为快速、低成本的支付而设计。',
      hk: 'XRP 是 XRP Ledger 的原生貨幣，專為快速、低成本的支付而設計。',
      kr: 'XRP는 빠르고 저렴한 결제를 위해 설계된 XRP 레저의 기본 화폐입니다.',
      jp: 'XRP は高速かつ低コストな送金のために設計された XRP Ledger のネイティブ通貨です。',
    },
  },
  {
    id: 5,
    code: 'DOGE',
    name: 'Dogecoin',
    scale: 8,
    udunId: 3,
    chains: [{ type: 0, code: 'DOGE', network: 'dogecoin' }],
    withdrawMin: '50',
    withdrawFee: '5',
    descriptions: {
      en: 'Dogecoin started in 2013 as a light-hearted fork of Litecoin and became a widely used payment coin.',
      zh: '狗狗币于 2013 年作为莱特币的趣味分叉诞生，后来成为广泛使用的支付币。',
      hk: '狗狗幣於 2013 年作為萊特幣的趣味分叉誕生，後來成為廣泛使用的支付幣。',
      kr: '도지코인은 2013년 라이트코인의 가벼운 포크로 시작해 널리 쓰이는 결제용 코인이 되었습니다.',
      jp: 'ドージコインは 2013 年にライトコインの遊び心あるフォークとして始まり、広く使われる決済用コインになりました。',
    },
  },
  {
    id: 6,
    code: 'LINK',
    name: 'Chainlink',
    scale: 8,
    udunId: 60,
    chains: [{ type: 0, code: 'ERC20', network: 'ethereum' }],
    withdrawMin: '2',
    withdrawFee: '0.4',
    descriptions: {
      en: 'LINK is the token of Chainlink, a network of oracles that bring outside data to smart contracts.',
      zh: 'LINK 是 Chainlink 的代币，Chainlink 是为智能合约提供外部数据的预言机网络。',
      hk: 'LINK 是 Chainlink 的代幣，Chainlink 是為智能合約提供外部數據的預言機網絡。',
      kr: 'LINK는 스마트 계약에 외부 데이터를 제공하는 오라클 네트워크인 체인링크의 토큰입니다.',
      jp: 'LINK はスマートコントラクトに外部データを届けるオラクルネットワーク、チェーンリンクのトークンです。',
    },
  },
  {
    id: 7,
    code: 'LTC',
    name: 'Litecoin',
    scale: 8,
    udunId: 2,
    chains: [{ type: 0, code: 'LTC', network: 'litecoin' }],
    withdrawMin: '0.01',
    withdrawFee: '0.001',
    descriptions: {
      en: 'Litecoin, launched in 2011, is a Bitcoin-derived currency with faster blocks.',
      zh: '莱特币于 2011 年推出，源自比特币，出块速度更快。',
      hk: '萊特幣於 2011 年推出，源自比特幣，出塊速度更快。',
      kr: '2011년에 출시된 라이트코인은 비트코인에서 파생된 화폐로 블록 생성이 더 빠릅니다.',
      jp: 'ライトコインは 2011 年に登場したビットコイン由来の通貨で、ブロック生成がより速いのが特徴です。',
    },
  },
  {
    id: 8,
    code: 'TRX',
    name: 'TRON',
    scale: 6,
    udunId: 195,
    chains: [{ type: 0, code: 'TRX', network: 'tron' }],
    withdrawMin: '50',
    withdrawFee: '1',
    descriptions: {
      en: 'TRX is the native currency of the TRON blockchain, which also carries the TRC20 version of USDT.',
      zh: 'TRX 是波场区块链的原生货币，USDT 的 TRC20 版本也运行在波场上。',
      hk: 'TRX 是波場區塊鏈的原生貨幣，USDT 的 TRC20 版本亦運行於波場之上。',
      kr: 'TRX는 트론 블록체인의 기본 화폐이며, 트론에서는 USDT의 TRC20 버전도 유통됩니다.',
      jp: 'TRX は TRON ブロックチェーンのネイティブ通貨で、TRON 上では USDT の TRC20 版も流通しています。',
    },
  },
];

// Price decimals times quantity decimals never exceed USDT's 6, so price x quantity is always a whole number
// of USDT minor units and trades settle exactly (a test checks it).
export const DEMO_MARKETS: DemoMarket[] = [
  {
    id: 1,
    base: 'BTC',
    quote: 'USDT',
    priceScale: 2,
    lotSize: '0.0001',
    minNotional: '5',
    makerFeePpm: 1000,
    takerFeePpm: 1000,
    leverShareSize: '0.01',
  },
  {
    id: 2,
    base: 'ETH',
    quote: 'USDT',
    priceScale: 2,
    lotSize: '0.0001',
    minNotional: '5',
    makerFeePpm: 1000,
    takerFeePpm: 1000,
    leverShareSize: '0.1',
  },
  {
    id: 3,
    base: 'XRP',
    quote: 'USDT',
    priceScale: 4,
    lotSize: '0.1',
    minNotional: '5',
    makerFeePpm: 1000,
    takerFeePpm: 1000,
    leverShareSize: '100',
  },
  {
    id: 4,
    base: 'DOGE',
    quote: 'USDT',
    priceScale: 5,
    lotSize: '1',
    minNotional: '5',
    makerFeePpm: 1000,
    takerFeePpm: 1000,
    leverShareSize: '1000',
  },
  {
    id: 5,
    base: 'LINK',
    quote: 'USDT',
    priceScale: 3,
    lotSize: '0.01',
    minNotional: '5',
    makerFeePpm: 1000,
    takerFeePpm: 1000,
    leverShareSize: '10',
  },
  {
    id: 6,
    base: 'LTC',
    quote: 'USDT',
    priceScale: 2,
    lotSize: '0.001',
    minNotional: '5',
    makerFeePpm: 1000,
    takerFeePpm: 1000,
    leverShareSize: '1',
  },
  {
    id: 7,
    base: 'TRX',
    quote: 'USDT',
    priceScale: 5,
    lotSize: '0.1',
    minNotional: '5',
    makerFeePpm: 1000,
    takerFeePpm: 1000,
    leverShareSize: '1000',
  },
];

/** Leverage settings every demo market shares. */
export const DEMO_LEVER = {
  enabled: true,
  shareMin: 1,
  shareMax: 1000,
  sharePresets: [1, 5, 10, 20, 50],
  multiples: [5, 10, 20, 50],
  // 0.05 % entry spread, 0.1 % opening fee, 0.05 % per day overnight.
  spreadPpm: 500,
  feePpm: 1000,
  overnightPpm: 500,
} as const;
