-- Withdrawal safety (issue 21, defect 8): adding a withdrawal address and withdrawing need a second factor.
-- With no authenticator, that is a code sent to the account's e-mail (or phone), of purpose 'withdraw'.
alter table verification_codes drop constraint if exists verification_codes_purpose_check;
alter table verification_codes
  add constraint verification_codes_purpose_check
  check (purpose in ('register', 'forget', 'bind_email', 'bind_mobile', 'withdraw'));
