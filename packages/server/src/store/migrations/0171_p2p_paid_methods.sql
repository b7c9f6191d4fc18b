-- The payment method a buyer paid with on an order of a sell ad (issue 45). Such an order offers the
-- seller's methods; the one used is named on "paid" (or is the only one offered) and kept here, so a
-- completed acceptor deal shows the method and account actually used after the order's details are hidden.
create table p2p_paid_methods (
  order_id bigint primary key,
  method_id integer not null
);
