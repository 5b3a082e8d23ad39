-- Invoicing business rules, part 6: loyalty points (ERPNext's model, settings in
-- business_profile.loyalty {earn_amount, point_value, min_redeem_points, expiry_days}).
--
-- * Earn: a sale to a party with loyalty_enabled earns floor((total − loyalty_amount) /
--   earn_amount) points, one 'earn' row per invoice, kept in step with the invoice's total
--   (its lines arrive after the header), expiring date + expiry_days.
-- * Redeem: loyalty_points_redeemed on a new sale: min_redeem_points ≤ points ≤ the party's
--   balance; value = points × point_value ≤ the invoice total (when known); booked as a payment
--   (amount_paid += loyalty_amount) so GST is unchanged; one 'redeem' row (negative points).
-- * Returns: a sale_return of an invoice that earned points writes a 'reverse' row taking back
--   floor(return total / earn_amount) points, at most what the original earned.
-- * parties.loyalty_points = Σ points of the party's rows (expired earnings are taken out by
--   'expire' rows the daily job writes); balance_after is that running balance.

create or replace function app.invoicing_loyalty_settings(p_company_id uuid) returns jsonb
language sql stable security definer set search_path = '' as $$
  select '{"earn_amount": 100, "point_value": 1, "min_redeem_points": 0, "expiry_days": 365}'::jsonb
         || coalesce((select b.loyalty from invoicing.business_profile b where b.company_id = p_company_id), '{}')
$$;

-- BEFORE INSERT on invoices: a redemption is validated and valued.
create or replace function app.invoicing_loyalty_redeem() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  cfg jsonb;
  party invoicing.parties%rowtype;
begin
  if coalesce(new.loyalty_points_redeemed, 0) = 0 then
    new.loyalty_amount := 0;
    return new;
  end if;
  if new.type <> 'sale' then
    raise exception 'loyalty_points_redeemed: points are redeemed on sales only'
      using errcode = '23514', column = 'loyalty_points_redeemed';
  end if;
  select * into party from invoicing.parties p where p.company_id = new.company_id and p.id = new.party_id for update;
  if not found or not party.loyalty_enabled then
    raise exception 'loyalty_points_redeemed: the party is not in the loyalty programme'
      using errcode = '23514', column = 'loyalty_points_redeemed';
  end if;
  cfg := app.invoicing_loyalty_settings(new.company_id);
  if new.loyalty_points_redeemed < (cfg ->> 'min_redeem_points')::numeric
     or new.loyalty_points_redeemed > party.loyalty_points or new.loyalty_points_redeemed < 0 then
    raise exception 'loyalty_points_redeemed must be between % and the party''s balance %',
      cfg ->> 'min_redeem_points', party.loyalty_points
      using errcode = '23514', column = 'loyalty_points_redeemed';
  end if;
  new.loyalty_amount := round(new.loyalty_points_redeemed * (cfg ->> 'point_value')::numeric, 2);
  if new.total > 0 and new.loyalty_amount > new.total then
    raise exception 'loyalty_points_redeemed: worth % but the invoice total is %', new.loyalty_amount, new.total
      using errcode = '23514', column = 'loyalty_points_redeemed';
  end if;
  new.amount_paid := new.amount_paid + new.loyalty_amount;
  new.status := app.invoicing_derive_status(new.total, new.amount_paid);
  return new;
end $$;

-- runs after rules_before and rules_number (alphabetical order of BEFORE triggers)
create trigger rules_ztloyalty before insert on invoicing.invoices
  for each row execute function app.invoicing_loyalty_redeem();

-- AFTER INSERT/UPDATE on invoices: the redeem row (once), the earn or reverse row (kept in step).
create or replace function app.invoicing_loyalty_sync() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  cfg jsonb;
  enabled boolean;
  earn_amount numeric;
  pts numeric := 0;
  kind text;
  orig_earned numeric;
begin
  if new.party_id is null then
    return null;
  end if;
  select p.loyalty_enabled into enabled from invoicing.parties p where p.company_id = new.company_id and p.id = new.party_id;
  if tg_op = 'INSERT' and new.loyalty_points_redeemed > 0 then
    insert into invoicing.loyalty_transactions (company_id, party_id, invoice_id, type, points, amount, date, notes)
    values (new.company_id, new.party_id, new.id, 'redeem', -new.loyalty_points_redeemed, new.loyalty_amount,
            new.date, 'Redeemed on ' || coalesce(new.invoice_number, new.id::text));
  end if;
  if not coalesce(enabled, false) or new.type not in ('sale', 'sale_return') then
    return null;
  end if;
  cfg := app.invoicing_loyalty_settings(new.company_id);
  earn_amount := nullif((cfg ->> 'earn_amount')::numeric, 0);
  if new.type = 'sale' then
    kind := 'earn';
    pts := coalesce(floor(greatest(new.total - new.loyalty_amount, 0) / earn_amount), 0);
  else
    kind := 'reverse';
    select o.loyalty_points_earned into orig_earned from invoicing.invoices o
    where o.company_id = new.company_id and o.id = new.original_invoice_id;
    pts := -least(coalesce(floor(new.total / earn_amount), 0), coalesce(orig_earned, 0));
  end if;
  if pts is distinct from (case kind when 'earn' then new.loyalty_points_earned else -new.loyalty_points_earned end)
     or tg_op = 'INSERT' then
    delete from invoicing.loyalty_transactions t
    where t.company_id = new.company_id and t.invoice_id = new.id and t.type = kind;
    if pts <> 0 then
      insert into invoicing.loyalty_transactions (company_id, party_id, invoice_id, type, points, date, expiry_date, notes)
      values (new.company_id, new.party_id, new.id, kind, pts, new.date,
              case kind when 'earn' then new.date + coalesce((cfg ->> 'expiry_days')::int, 365) end,
              initcap(kind) || ' on ' || coalesce(new.invoice_number, new.id::text));
    end if;
    update invoicing.invoices set loyalty_points_earned = abs(pts)
    where company_id = new.company_id and id = new.id and loyalty_points_earned <> abs(pts);
  end if;
  return null;
end $$;

create trigger rules_loyalty after insert or update of total, loyalty_amount on invoicing.invoices
  for each row execute function app.invoicing_loyalty_sync();

-- Deleting an invoice removes its loyalty rows (the foreign key would only orphan them).
create or replace function app.invoicing_loyalty_invoice_delete() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  delete from invoicing.loyalty_transactions t where t.company_id = old.company_id and t.invoice_id = old.id;
  return old;
end $$;

create trigger rules_loyalty_delete before delete on invoicing.invoices
  for each row execute function app.invoicing_loyalty_invoice_delete();

-- loyalty rows: running balance and the party's cached total
create or replace function app.invoicing_loyalty_balance_after() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  new.balance_after := coalesce((select sum(t.points) from invoicing.loyalty_transactions t
                                 where t.company_id = new.company_id and t.party_id = new.party_id
                                   and t.id <> new.id), 0) + new.points;
  return new;
end $$;

create trigger rules_balance before insert or update on invoicing.loyalty_transactions
  for each row execute function app.invoicing_loyalty_balance_after();

-- one statement-level trigger per event: transition tables cannot be shared across events,
-- so each passes an empty stand-in for the side it lacks
create or replace function app.invoicing_loyalty_party_total_ins() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  update invoicing.parties p set loyalty_points = coalesce(s.total, 0)
  from (select distinct company_id, party_id from new_rows) c
  left join lateral (select sum(t.points) as total from invoicing.loyalty_transactions t
                     where t.company_id = c.company_id and t.party_id = c.party_id) s on true
  where p.company_id = c.company_id and p.id = c.party_id and p.loyalty_points is distinct from coalesce(s.total, 0);
  return null;
end $$;
create or replace function app.invoicing_loyalty_party_total_del() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  update invoicing.parties p set loyalty_points = coalesce(s.total, 0)
  from (select distinct company_id, party_id from old_rows) c
  left join lateral (select sum(t.points) as total from invoicing.loyalty_transactions t
                     where t.company_id = c.company_id and t.party_id = c.party_id) s on true
  where p.company_id = c.company_id and p.id = c.party_id and p.loyalty_points is distinct from coalesce(s.total, 0);
  return null;
end $$;

create trigger rules_party_total_ins after insert on invoicing.loyalty_transactions
  referencing new table as new_rows for each statement execute function app.invoicing_loyalty_party_total_ins();
create trigger rules_party_total_upd after update on invoicing.loyalty_transactions
  referencing new table as new_rows for each statement execute function app.invoicing_loyalty_party_total_ins();
create trigger rules_party_total_upd_old after update on invoicing.loyalty_transactions
  referencing old table as old_rows for each statement execute function app.invoicing_loyalty_party_total_del();
create trigger rules_party_total_del after delete on invoicing.loyalty_transactions
  referencing old table as old_rows for each statement execute function app.invoicing_loyalty_party_total_del();

-- parties.loyalty_points is a cache: a client's edit of it is ignored
create or replace function app.invoicing_party_loyalty_guard() returns trigger
language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    new.loyalty_points := 0;
  elsif pg_trigger_depth() = 1 then
    new.loyalty_points := old.loyalty_points;
  end if;
  return new;
end $$;

create trigger rules_loyalty_guard before insert or update on invoicing.parties
  for each row execute function app.invoicing_party_loyalty_guard();

-- The daily job: earnings past their expiry date give up what is left of them. Each expired
-- earn row gets one 'expire' row (same invoice_id), so running it twice changes nothing.
create or replace function app.invoicing_expire_loyalty(p_today date default current_date) returns integer
language plpgsql security definer set search_path = '' as $$
declare
  n integer;
begin
  insert into invoicing.loyalty_transactions (company_id, party_id, invoice_id, type, points, date, notes)
  select e.company_id, e.party_id, e.invoice_id, 'expire', -least(e.points, p.loyalty_points), p_today,
         'Expired points of ' || coalesce(e.notes, 'an earlier sale')
  from invoicing.loyalty_transactions e
  join invoicing.parties p on p.company_id = e.company_id and p.id = e.party_id
  where e.type = 'earn' and e.expiry_date < p_today and p.loyalty_points > 0
    and not exists (select from invoicing.loyalty_transactions x
                    where x.company_id = e.company_id and x.type = 'expire' and x.invoice_id = e.invoice_id);
  get diagnostics n = row_count;
  return n;
end $$;
revoke all on function app.invoicing_expire_loyalty(date) from public, anon, authenticated;
