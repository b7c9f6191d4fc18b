-- Wallets and funding: chains, deposit addresses, deposits, withdrawals, flash exchanges, the withdrawal
-- address book and the custody provider's callbacks.
--
-- Balances themselves live in the engine (and its account_log projection); these tables hold what the
-- engine does not know: chain addresses, transaction ids, review decisions and prices. Money columns are
-- numeric(40,0) minor units of their currency, like the journal's projections. Every row that moves money
-- names the engine command it became through a memo "<kind>:<id>" on that command, so a row left pending
-- by a crash can be matched against account_log when the server starts again.

-- How a currency travels on a chain and how the custody provider names it. chain_type is the index the web
-- client sends (USDT: TRC20 0, ERC20 1). main_coin_type is the SLIP-44 number of the network's own coin;
-- coin_type is the same number for that coin and the token contract for a token.
create table wallet_chains (
  currency_id integer not null references currencies (id),
  chain_type smallint not null check (chain_type between 0 and 15),
  code text not null check (code ~ '^[A-Z0-9-]{1,16}$'),
  network text not null check (network in ('bitcoin', 'litecoin', 'dogecoin', 'ethereum', 'tron', 'xrpl')),
  main_coin_type integer not null check (main_coin_type >= 0),
  coin_type text not null check (length(coin_type) between 1 and 128),
  -- Digits of the coin's smallest unit on chain (USDT-ERC20 6, ETH 18); callbacks carry their own.
  chain_decimals smallint not null check (chain_decimals between 0 and 36),
  -- Confirmations the provider waits for before it reports a deposit as confirmed (shown to users).
  confirmations integer not null check (confirmations between 0 and 1000),
  is_enabled boolean not null default true,
  primary key (currency_id, chain_type),
  unique (main_coin_type, coin_type)
);

-- One deposit address per user and network, derived from the network's extended public key at path
-- `derivation_path`; key_fingerprint names that key, so replacing a key gives users new addresses while
-- deposits to the old ones are still recognised.
create table deposit_addresses (
  id integer generated always as identity primary key,
  user_id integer not null references users (id) on delete cascade,
  network text not null,
  address text not null,
  derivation_path text not null,
  key_fingerprint text not null check (key_fingerprint ~ '^[0-9a-f]{8}$'),
  created_at timestamptz not null default now(),
  unique (network, address),
  unique (user_id, network, key_fingerprint)
);

-- Credits from the outside world: confirmed chain deposits reported by the custody provider, and credits an
-- administrator made by hand in the sandbox. A chain transaction may pay several addresses and carry
-- several tokens, so one deposit is one (tx_id, address, coin_type); each is credited at most once whatever
-- the engine's idempotency window (24 h) has forgotten. Hand credits get a tx_id of "manual:<uuid>".
create table deposits (
  id integer generated always as identity primary key,
  user_id integer not null references users (id),
  currency_id integer not null references currencies (id),
  chain_type smallint,
  address text not null default '',
  coin_type text not null default '',
  tx_id text not null check (length(tx_id) between 1 and 256),
  trade_id text,
  -- What arrived, in the chain's smallest unit, and what was credited at the currency's scale; the rest
  -- (digits finer than the currency keeps) stays in the exchange's custody.
  chain_amount numeric(40, 0) not null check (chain_amount > 0),
  chain_decimals smallint not null,
  amount numeric(40, 0) not null check (amount > 0),
  source text not null check (source in ('custody', 'manual')),
  admin_id integer references admins (id),
  note text,
  status text not null check (status in ('pending', 'credited')),
  engine_seq bigint,
  created_at timestamptz not null default now(),
  credited_at timestamptz,
  unique (tx_id, address, coin_type)
);

create index deposits_user_idx on deposits (user_id, currency_id, id desc);

-- Withdrawals: `amount` (fee included) is held on the user's change wallet by the engine from request to
-- decision. Status: pending (awaiting review) -> approved (payout handed to the custody provider or the
-- sandbox) -> completed (confirmed on chain); or rejected (by an administrator) / failed (by the chain or the
-- provider), both of which release the hold. `requested` is the instant before the engine has answered.
create table withdrawals (
  id integer generated always as identity primary key,
  user_id integer not null references users (id),
  currency_id integer not null references currencies (id),
  chain_type smallint not null,
  network text not null,
  address text not null,
  amount numeric(40, 0) not null check (amount > 0),
  fee numeric(40, 0) not null check (fee >= 0),
  engine_withdrawal_id bigint unique,
  status text not null check (status in ('requested', 'pending', 'approved', 'completed', 'rejected', 'failed')),
  review_note text,
  reviewed_by integer references admins (id),
  reviewed_at timestamptz,
  payout_adapter text check (payout_adapter in ('custody', 'sandbox')),
  payout_error text,
  tx_id text,
  trade_id text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (fee < amount)
);

create index withdrawals_user_idx on withdrawals (user_id, currency_id, id desc);
create index withdrawals_status_idx on withdrawals (status, id);

-- Flash exchanges between a coin and its legal (quote) currency, priced by the server from the index price.
-- direction 0: legal -> coin; 1: coin -> legal. price is the coin's index price in the legal currency
-- (decimal text); amount is what the user paid, payout what the house paid and fee the part of it that went
-- to the fees account.
create table flash_exchanges (
  id integer generated always as identity primary key,
  user_id integer not null references users (id),
  coin_currency_id integer not null references currencies (id),
  legal_currency_id integer not null references currencies (id),
  direction smallint not null check (direction in (0, 1)),
  amount numeric(40, 0) not null check (amount > 0),
  payout numeric(40, 0) not null check (payout > 0),
  fee numeric(40, 0) not null check (fee >= 0),
  fee_ppm integer not null check (fee_ppm between 0 and 1000000),
  price text not null check (price ~ '^[0-9]+(\.[0-9]+)?$'),
  index_price_time_ms bigint not null,
  status text not null check (status in ('pending', 'done', 'failed')),
  failure text,
  engine_seq bigint,
  created_at timestamptz not null default now()
);

create index flash_exchanges_user_idx on flash_exchanges (user_id, id desc);

-- The user's book of withdrawal addresses, checked when added like any withdrawal address.
create table withdraw_addresses (
  id integer generated always as identity primary key,
  user_id integer not null references users (id) on delete cascade,
  currency_id integer not null references currencies (id),
  chain_type smallint not null,
  address text not null,
  notes text not null default '' check (length(notes) <= 64),
  created_at timestamptz not null default now(),
  unique (user_id, currency_id, chain_type, address)
);

create index withdraw_addresses_user_idx on withdraw_addresses (user_id, currency_id, id);

-- Every callback the custody provider sent, verified or not, with what became of it: the audit trail for
-- disputes and for an operator looking for a deposit that did not arrive.
create table custody_callbacks (
  id bigint generated always as identity primary key,
  received_at timestamptz not null default now(),
  ip text,
  timestamp_text text,
  nonce text,
  sign_ok boolean not null,
  -- credited, duplicate, noted, withdrawal_completed, withdrawal_failed, refused
  outcome text not null,
  detail text,
  trade_type smallint,
  tx_id text,
  body text
);

create index custody_callbacks_received_idx on custody_callbacks (received_at desc);
create index custody_callbacks_tx_idx on custody_callbacks (tx_id);
