/** Registers a currency; amounts in it are integers of 10^-scale units. */
export type AddCurrencyCommand = { type: 'addCurrency'; currencyId: number; code: string; scale: number };

export type LedgerCommand = AddCurrencyCommand;
