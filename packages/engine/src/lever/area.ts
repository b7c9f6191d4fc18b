// The lever area: leveraged contracts against the house on the market data area's mark price (spec 01
// sections 2-5, 7, 9; spec 03 section 4). Each record holds its margin (and a limit entry its fee) on the
// user's lever wallet; books per user and quote currency carry the cross margin; triggers indexed by price
// per pair open entries, close stops and liquidate books as marks arrive. See docs/lever.md.
import { command, defineArea } from '../kernel/area.ts';
import { NOT_FROZEN, frozenBy } from '../kernel/freezes.ts';
import { LEVER_PAIRS } from './expected.ts';
import { LeverResultCode, LeverReasonCode } from './codes.ts';
import type {
  ChargeLeverOvernightCommand,
  CloseLeverPositionCommand,
  CloseLeverPositionsCommand,
  OpenLeverPositionCommand,
  RevokeLeverEntryCommand,
  SetLeverPairCommand,
  SetLeverStopsCommand,
  SubmitLeverEntryCommand,
} from './commands.ts';
import {
  LEVER_FEE_HOLDS,
  chargeLeverOvernight,
  closeLeverPosition,
  closeLeverPositions,
  leverOnMark,
  openLeverPosition,
  revokeLeverEntry,
  setLeverPair,
  setLeverStops,
  submitLeverEntry,
} from './handlers.ts';
import { checkLeverInvariants } from './invariants.ts';
import type { LeverQueries } from './queries.ts';
import {
  exposureView,
  insuranceView,
  pairView,
  positionView,
  positionsView,
  reservedOf,
  riskView,
} from './reads.ts';
import { readLeverSection, writeLeverSection } from './snapshot.ts';
import type { LeverSnapshotSection } from './snapshot.ts';
import type { LeverBook } from './state.ts';
import { LEVER_WALLET_INDEX, LeverState, bookKey } from './state.ts';

export const leverArea = defineArea({
  name: 'lever',
  commands: {
    setLeverPair: command<LeverState, SetLeverPairCommand>(setLeverPair),
    openLeverPosition: command<LeverState, OpenLeverPositionCommand>(openLeverPosition, (c) => c.userId),
    submitLeverEntry: command<LeverState, SubmitLeverEntryCommand>(submitLeverEntry, (c) => c.userId),
    revokeLeverEntry: command<LeverState, RevokeLeverEntryCommand>(revokeLeverEntry, (c) => c.userId),
    closeLeverPosition: command<LeverState, CloseLeverPositionCommand>(closeLeverPosition, (c) => c.userId),
    closeLeverPositions: command<LeverState, CloseLeverPositionsCommand>(
      closeLeverPositions,
      (c) => c.userId,
    ),
    setLeverStops: command<LeverState, SetLeverStopsCommand>(setLeverStops, (c) => c.userId),
    chargeLeverOvernight: command<LeverState, ChargeLeverOvernightCommand>(chargeLeverOvernight),
  },
  freezes: {
    setLeverPair: NOT_FROZEN,
    openLeverPosition: frozenBy<LeverState, OpenLeverPositionCommand>(['trading'], (c) => c.userId),
    submitLeverEntry: frozenBy<LeverState, SubmitLeverEntryCommand>(['trading'], (c) => c.userId),
    // Revoking an entry, closing and moving the stops of an open position reduce risk.
    revokeLeverEntry: NOT_FROZEN,
    closeLeverPosition: NOT_FROZEN,
    closeLeverPositions: NOT_FROZEN,
    setLeverStops: NOT_FROZEN,
    chargeLeverOvernight: NOT_FROZEN,
  },
  createState: (setup) => new LeverState(setup),
  queries: (state): LeverQueries => ({
    pairs: () => [...state.pairs.values()].sort((a, b) => a.marketId - b.marketId).map(pairView),
    pair: (marketId) => {
      const pair = state.pairs.get(marketId);
      return pair === undefined ? undefined : pairView(pair);
    },
    positions: (userId, status) => positionsView(state, userId, status),
    position: (positionId) => {
      const record = state.records.get(positionId);
      return record === undefined ? undefined : positionView(state, record);
    },
    risk: (userId, quoteCurrencyId) => riskView(state, userId, quoteCurrencyId),
    holdersOf: (marketId) => usersOf(state.pairHolders.get(marketId)),
    holdersIn: (quoteCurrencyId) => usersOf(state.currencyHolders.get(quoteCurrencyId)),
    currenciesOf: (userId) => [...(state.userCurrencies.get(userId) ?? [])].sort((a, b) => a - b),
    exposure: () => exposureView(state),
    insuranceFund: () => insuranceView(state),
  }),
  // Written only when the area holds anything, so a state that never used leverage keeps its snapshot text
  // and state hash.
  writeSnapshot: (state) => ({ lever: writeLeverSection(state) }),
  readSnapshot: (state, document) => {
    const pairs = state.port(LEVER_PAIRS);
    readLeverSection(state, document.lever as LeverSnapshotSection | undefined, state.ledger, (marketId) =>
      pairs.market(marketId),
    );
  },
  rebuildsHolds: true,
  holdOwners: [LEVER_FEE_HOLDS],
  checkInvariants: (state, ledger) => checkLeverInvariants(state, ledger),
  // Spec 03 section 2: funds may leave a user's lever wallet only above what the open positions need (the
  // origin margins not covered by margins and profits). Asking marks the book for re-indexing: a transfer
  // out lowers the balance its liquidation prices were computed with.
  reservedFunds: (state, account) => {
    if (account.walletIndex !== LEVER_WALLET_INDEX || account.ownerKey <= 0) return 0n;
    const book = state.books.get(bookKey(account.ownerKey, account.currencyId));
    if (book === undefined || book.holdings.size === 0) return 0n;
    state.dirty.add(book);
    return reservedOf(state, book);
  },
  bigintFields: [
    'contractValue',
    'margin',
    'originMargin',
    'fee',
    'marginRefund',
    'feeRefund',
    'overnightPaid',
    'profit',
    'returned',
    'lossFromMargin',
    'lossFromBalance',
    'lossFromOtherMargins',
    'shortfall',
    'uncovered',
    'houseUnpaid',
    'amount',
    'equity',
    'liquidationFee',
    'fromMargin',
    'fromBalance',
    'unpaid',
    'overnightTotal',
    'charged',
  ],
  resultCodes: LeverResultCode,
  reasonCodes: LeverReasonCode,
  onPrice: (ctx, state, price) => {
    if (!price.sample || price.markTicks === null) return;
    if (state.records.size === 0 && state.dirty.size === 0) return;
    leverOnMark(ctx, state, price.marketId, price.markTicks);
  },
  stats: (state) => ({ leverRecords: state.records.size }),
});

function usersOf(books: ReadonlySet<LeverBook> | undefined): number[] {
  if (books === undefined) return [];
  return [...books].map((book) => book.userId).sort((a, b) => a - b);
}
