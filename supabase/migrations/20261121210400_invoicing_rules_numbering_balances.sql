-- Invoicing business rules, part 5: invoice numbers for our own series, and party balances.

-- ── numbering ────────────────────────────────────────────────────────────────────────────────
-- A sale or sale return sent without invoice_number gets the next of its series:
-- <invoice_prefix or INV->0001 for sales, CN-0001 for credit notes. One counter row per company
-- and series, bumped under its row lock, so concurrent creates never collide; a number the client
-- already used by hand is skipped. (Rule 46 wants ≤ 16 characters of [A-Za-z0-9/-].)
create table app.invoicing_counters (
  company_id uuid not null references invoicing.companies (id) on delete cascade,
  series text not null,
  last_value bigint not null default 0,
  primary key (company_id, series)
);
revoke all on app.invoicing_counters from public, anon, authenticated;

create or replace function app.invoicing_next_number(p_company_id uuid, p_type text) returns text
language plpgsql security definer set search_path = '' as $$
declare
  prefix text;
  n bigint;
  candidate text;
begin
  prefix := case p_type when 'sale_return' then 'CN-' else coalesce((
    select nullif(trim(b.invoice_prefix), '') from invoicing.business_profile b where b.company_id = p_company_id), 'INV-') end;
  loop
    insert into app.invoicing_counters as c (company_id, series, last_value) values (p_company_id, p_type || ':' || prefix, 1)
    on conflict (company_id, series) do update set last_value = c.last_value + 1
    returning last_value into n;
    candidate := prefix || lpad(n::text, 4, '0');
    exit when not exists (select from invoicing.invoices i
                          where i.company_id = p_company_id and i.type = p_type and i.invoice_number = candidate);
  end loop;
  return candidate;
end $$;

create or replace function app.invoicing_invoice_number() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if new.invoice_number is null and new.type in ('sale', 'sale_return') then
    new.invoice_number := app.invoicing_next_number(new.company_id, new.type);
  end if;
  return new;
end $$;

create trigger rules_number before insert on invoicing.invoices
  for each row execute function app.invoicing_invoice_number();

-- ── party balances ───────────────────────────────────────────────────────────────────────────
-- Outstanding (+ = the party owes us, − = we owe the party):
--   ± opening_balance (to_receive +, to_pay −)
--   + Σ sale balances − Σ sale_return balances − Σ purchase balances + Σ purchase_return balances
--   − Σ unallocated payments in (their advances) + Σ unallocated payments out
-- Security invoker: RLS limits it to the caller's active company.
create or replace function invoicing.party_balances(p_party_ids uuid[] default null)
returns table (party_id uuid, balance numeric)
language sql stable security invoker set search_path = '' as $$
  with parties as (
    select p.id, p.company_id,
      case p.opening_balance_type when 'to_pay' then -p.opening_balance else p.opening_balance end as opening
    from invoicing.parties p
    where p.company_id = (select app.active_company_id())
      and (p_party_ids is null or p.id = any (p_party_ids))
  ), inv as (
    select i.party_id, sum(case i.type when 'sale' then 1 when 'purchase_return' then 1 else -1 end
                           * (i.total - i.amount_paid)) as due
    from invoicing.invoices i
    where i.company_id = (select app.active_company_id()) and i.party_id is not null
      and (p_party_ids is null or i.party_id = any (p_party_ids))
    group by i.party_id
  ), pay as (
    select y.party_id, sum(case y.type when 'in' then -1 else 1 end * y.unallocated_amount) as adv
    from invoicing.payments y
    where y.company_id = (select app.active_company_id()) and y.unallocated_amount <> 0
      and (p_party_ids is null or y.party_id = any (p_party_ids))
    group by y.party_id
  )
  select p.id, p.opening + coalesce(inv.due, 0) + coalesce(pay.adv, 0)
  from parties p
  left join inv on inv.party_id = p.id
  left join pay on pay.party_id = p.id
$$;

create or replace function invoicing.party_balance(p_party_id uuid) returns numeric
language sql stable security invoker set search_path = '' as $$
  select balance from invoicing.party_balances(array[p_party_id])
$$;

revoke all on function invoicing.party_balances(uuid[]), invoicing.party_balance(uuid) from public, anon;
grant execute on function invoicing.party_balances(uuid[]), invoicing.party_balance(uuid) to authenticated, service_role;
