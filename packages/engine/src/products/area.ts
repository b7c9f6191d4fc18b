// The products area: token sales (ico), cloud mining (miner) and defi staking (docs/products.md). A product
// holds on its house account what it promises (owner `products`, ref: the product) and what its holdings
// have earned and not been paid (`products.earned`); a stake's principal is held on the user's defi wallet
// (`products.stake`, ref: the stake). Days accrue one journaled command per product and day.
import { command, defineArea } from '../kernel/area.ts';
import { NOT_FROZEN, frozenBy } from '../kernel/freezes.ts';
import { ProductsReasonCode, ProductsResultCode } from './codes.ts';
import type {
  AccrueProductDayCommand,
  BuyIcoCommand,
  BuyMinerCommand,
  CloseProductCommand,
  CreateProductCommand,
  EditProductCommand,
  ExitDefiStakeCommand,
  ExtractMinerEarningsCommand,
  MatureProductHoldingsCommand,
  OpenProductCommand,
  RecordMinerRateCommand,
  StakeDefiCommand,
} from './commands.ts';
import {
  PRODUCT_EARNED_HOLDS,
  PRODUCT_STAKE_HOLDS,
  accrueProductDay,
  buyIco,
  buyMiner,
  closeProduct,
  createProduct,
  editProduct,
  exitDefiStake,
  extractMinerEarnings,
  matureProductHoldings,
  openProduct,
  recordMinerRate,
  stakeDefi,
} from './handlers.ts';
import { checkProductsInvariants } from './invariants.ts';
import { productsQueries } from './reads.ts';
import type { ProductsQueries } from './reads.ts';
import { readProductsSection, writeProductsSection } from './snapshot.ts';
import type { ProductsSnapshotSection } from './snapshot.ts';
import { ProductsState } from './state.ts';

export const productsArea = defineArea({
  name: 'products',
  commands: {
    createProduct: command<ProductsState, CreateProductCommand>(createProduct),
    editProduct: command<ProductsState, EditProductCommand>(editProduct),
    openProduct: command<ProductsState, OpenProductCommand>(openProduct),
    closeProduct: command<ProductsState, CloseProductCommand>(closeProduct),
    recordMinerRate: command<ProductsState, RecordMinerRateCommand>(recordMinerRate),
    buyIco: command<ProductsState, BuyIcoCommand>(buyIco, (c) => c.userId),
    buyMiner: command<ProductsState, BuyMinerCommand>(buyMiner, (c) => c.userId),
    stakeDefi: command<ProductsState, StakeDefiCommand>(stakeDefi, (c) => c.userId),
    extractMinerEarnings: command<ProductsState, ExtractMinerEarningsCommand>(
      extractMinerEarnings,
      (c) => c.userId,
    ),
    exitDefiStake: command<ProductsState, ExitDefiStakeCommand>(exitDefiStake, (c) => c.userId),
    accrueProductDay: command<ProductsState, AccrueProductDayCommand>(accrueProductDay),
    matureProductHoldings: command<ProductsState, MatureProductHoldingsCommand>(matureProductHoldings),
  },
  freezes: {
    createProduct: NOT_FROZEN,
    editProduct: NOT_FROZEN,
    openProduct: NOT_FROZEN,
    closeProduct: NOT_FROZEN,
    recordMinerRate: NOT_FROZEN,
    buyIco: frozenBy<ProductsState, BuyIcoCommand>(['trading'], (c) => c.userId),
    buyMiner: frozenBy<ProductsState, BuyMinerCommand>(['trading'], (c) => c.userId),
    stakeDefi: frozenBy<ProductsState, StakeDefiCommand>(['trading'], (c) => c.userId),
    // Taking earnings and leaving a stake early return funds to the user's wallets.
    extractMinerEarnings: NOT_FROZEN,
    exitDefiStake: NOT_FROZEN,
    accrueProductDay: NOT_FROZEN,
    matureProductHoldings: NOT_FROZEN,
  },
  createState: (setup) => new ProductsState(setup.ledger),
  queries: (state): ProductsQueries => productsQueries(state),
  writeSnapshot: (state) => ({ products: writeProductsSection(state) }),
  readSnapshot: (state, document) => {
    readProductsSection(state, document.products as ProductsSnapshotSection | undefined, state.ledger);
  },
  rebuildsHolds: true,
  holdOwners: [PRODUCT_EARNED_HOLDS, PRODUCT_STAKE_HOLDS],
  checkInvariants: (state, ledger) => checkProductsInvariants(state, ledger),
  bigintFields: [
    'totalUnits',
    'unitPrice',
    'rateMin',
    'rateMax',
    'perUserCap',
    'perUnit',
    'units',
    'paid',
    'principal',
    'daily',
    'earnings',
    'forfeited',
    'returned',
    'reserve',
    'released',
    'extractable',
  ],
  resultCodes: ProductsResultCode,
  reasonCodes: ProductsReasonCode,
  stats: (state) => ({ productHoldings: state.holdings.size }),
});
