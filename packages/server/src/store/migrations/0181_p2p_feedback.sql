-- Feedback after a completed P2P order (issue 45): each party may rate the other once, positive or negative,
-- with an optional comment. A merchant's statistics count the ratings it received. Not money, so not engine
-- state: a row of the gateway like the order room's messages.
create table p2p_feedback (
  order_id bigint not null,
  from_user integer not null,
  to_user integer not null,
  positive boolean not null,
  comment text not null default '',
  created_ms bigint not null,
  primary key (order_id, from_user)
);
create index p2p_feedback_to_user on p2p_feedback (to_user);
