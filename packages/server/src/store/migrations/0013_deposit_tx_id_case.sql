-- One chain transaction is credited once whatever the letter case of its id. The server writes each
-- deposit's tx_id in its chain's canonical form (hex digits in one case, wallets/chains/tx-ids.ts); this
-- index makes the database refuse a second row for the same transaction, address and coin whose id differs
-- only in letter case, whichever code path inserts it. It replaces nothing: the unique (tx_id, address,
-- coin_type) constraint of 0006 stays, and rows written before keep their spelling.
--
-- A database that already holds two such rows has credited one transaction twice. That needs a person,
-- not a migration: the migration stops and names the rows, and changes nothing.
do $$
declare
  twice text;
begin
  select string_agg(ids, '; ') into twice from (
    select string_agg(id::text, ', ' order by id) as ids
      from deposits
     group by lower(tx_id), address, coin_type
    having count(*) > 1
  ) as repeated;
  if twice is not null then
    raise exception 'deposits credited twice under transaction ids that differ only in letter case (deposit ids %); resolve them before this migration', twice;
  end if;
end
$$;

create unique index deposits_tx_id_canonical on deposits (lower(tx_id), address, coin_type);
