import type { Order } from './types.ts';

/** One price of one side of the fast book: its orders in time priority as a doubly linked list. */
export class PriceLevel {
  readonly priceTicks: number;
  totalLots = 0;
  orderCount = 0;
  head: Order | null = null;
  tail: Order | null = null;

  constructor(priceTicks: number) {
    this.priceTicks = priceTicks;
  }
}
