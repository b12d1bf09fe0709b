-- The low-balance threshold is the organization's line marked low_balance_threshold: setting
-- the column (a new organization's default, setLowBalanceThreshold, the alert lines API on
-- that line) moves the line to it, and 0 removes the line. Moving a line alerts nobody: it
-- is crossed at once when the balance is below its new bound, and alerts only when a balance
-- change crosses it again after coming back.
create or replace function alert_lines_from_threshold() returns trigger language plpgsql as $$
begin
  if tg_op = 'UPDATE' and old.low_balance_threshold = new.low_balance_threshold then
    return null;
  end if;
  if new.low_balance_threshold = 0 then
    delete from alert_lines where organization_id = new.organization_id and low_balance_threshold;
    return null;
  end if;
  update alert_lines
  set bound = new.low_balance_threshold,
      crossed = new.credit_balance < new.low_balance_threshold,
      value = new.credit_balance,
      crossed_at = case when new.credit_balance >= new.low_balance_threshold then null else coalesce(crossed_at, now()) end,
      updated_at = now()
  where organization_id = new.organization_id and low_balance_threshold;
  if not found then
    insert into alert_lines (organization_id, kind, bound, low_balance_threshold, crossed, value, crossed_at)
    values (new.organization_id, 'balance', new.low_balance_threshold, true, new.credit_balance < new.low_balance_threshold,
      new.credit_balance, case when new.credit_balance < new.low_balance_threshold then now() end);
  end if;
  return null;
end;
$$;

create or replace trigger alert_lines_from_threshold_trg after insert or update of low_balance_threshold on organization_billing_settings
  for each row execute function alert_lines_from_threshold();
