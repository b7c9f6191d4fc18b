export { p2pArea } from './area.ts';
export type { P2pAdView, P2pOrderView, P2pQueries } from './area.ts';
export { P2pReasonCode, P2pResultCode } from './codes.ts';
export type * from './commands.ts';
export type * from './events.ts';
export { P2P_FIAT_CODES, P2P_WINDOWS_MS } from './state.ts';
export type { P2pEnd, P2pOrderStatus, P2pSide } from './state.ts';
