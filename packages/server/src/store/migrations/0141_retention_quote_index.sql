-- Journal retention removes the market maker's untraded quotes in bounded batches, each with its hold and
-- release rows of account_log. Without this index every batch scanned all of the system owner's account_log
-- rows (account_log_owner_idx leads with owner and currency, not the order), so a batch cost as much as the
-- whole job; with it a batch reads only its own rows. Partial: system owners' holds and releases (reason
-- codes 300 and 301) only, so users' rows cost nothing more to write.
create index account_log_system_order_idx on account_log (owner_key, reference_id)
  where owner_key < 0 and reason in (300, 301);
