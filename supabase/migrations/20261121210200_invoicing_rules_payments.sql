-- Invoicing business rules, part 3: payments settle invoices, expense payments settle expenses.
--
-- Model (documented in the API description):
-- * invoices.amount_paid = what the client recorded as received on the invoice itself (a counter
--   sale paid at once) + every payment allocation to it. Payments move it by their allocations;
--   status is always re-derived from it.
-- * A payment in settles sales and purchase-return refunds; a payment out settles purchases and
--   sale-return refunds. Order: 1. invoice_id → min(amount, balance); 2. else the allocations
--   sent, each min(its amount, balance, what is left); 3. else FIFO over the party's open
--   invoices by (date, id). The rest is unallocated_amount (an advance).
-- * After the write, payments.allocations holds what was actually applied [{invoice_id, amount}]
--   — the record that reversal uses. Edit = reverse the old allocations and apply again, in the
--   same transaction, with the invoices locked (SELECT … FOR UPDATE). An edit that leaves
--   invoice_id and allocations untouched re-applies the same allocations (trimmed to a smaller
--   amount in order; a larger amount's extra is an advance); send "allocations": [] to re-run FIFO.
-- * expenses.amount_paid = Σ expense_payments (the client's value is ignored); over-payment is
--   refused.

create index payments_allocations_idx on invoicing.payments using gin (allocations jsonb_path_ops);

create or replace function app.invoicing_settles(p_payment_type text) returns text[]
language sql immutable set search_path = '' as $$
  select case p_payment_type when 'in' then array['sale', 'purchase_return']
                             else array['purchase', 'sale_return'] end
$$;

-- Applies `amount` of one payment to one locked invoice; returns the amount applied.
create or replace function app.invoicing_settle_one(
  p_company_id uuid, p_payment invoicing.payments, p_invoice_id uuid, p_amount numeric, p_field text
) returns numeric
language plpgsql security definer set search_path = '' as $$
declare
  inv record;
  x numeric;
begin
  select i.id, i.type, i.party_id, i.total, i.amount_paid into inv
  from invoicing.invoices i where i.company_id = p_company_id and i.id = p_invoice_id
  for update;
  if not found then
    raise exception '%: no invoice % in this company', p_field, p_invoice_id
      using errcode = '23503', column = p_field;
  end if;
  if inv.type <> all (app.invoicing_settles(p_payment.type)) then
    raise exception '%: a payment % settles % invoices, not a %', p_field, p_payment.type,
      array_to_string(app.invoicing_settles(p_payment.type), ' and '), inv.type
      using errcode = '23514', column = p_field;
  end if;
  if inv.party_id is not null and inv.party_id <> p_payment.party_id then
    raise exception '%: invoice % belongs to another party', p_field, p_invoice_id
      using errcode = '23514', column = p_field;
  end if;
  x := least(p_amount, greatest(inv.total - inv.amount_paid, 0));
  if x > 0 then
    update invoicing.invoices set amount_paid = amount_paid + x
    where company_id = p_company_id and id = p_invoice_id;
  end if;
  return greatest(x, 0);
end $$;

create or replace function app.invoicing_unsettle(p_company_id uuid, p_allocations jsonb) returns void
language sql security definer set search_path = '' as $$
  update invoicing.invoices i
  set amount_paid = greatest(i.amount_paid - a.amount, 0)
  from (select (e ->> 'invoice_id')::uuid as invoice_id, sum((e ->> 'amount')::numeric) as amount
        from jsonb_array_elements(p_allocations) e group by 1) a
  where i.company_id = p_company_id and i.id = a.invoice_id
$$;

create or replace function app.invoicing_payment_rules() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  requested jsonb;
  applied jsonb := '[]';
  remaining numeric;
  x numeric;
  e jsonb;
  i int := 0;
  inv record;
begin
  -- system writes (an invoice being deleted releases its allocations) are bookkeeping only
  if pg_trigger_depth() > 1 then
    return case tg_op when 'DELETE' then old else new end;
  end if;
  if tg_op in ('UPDATE', 'DELETE') then
    perform app.invoicing_unsettle(old.company_id, old.allocations);
  end if;
  if tg_op = 'DELETE' then
    return old;
  end if;

  requested := new.allocations;
  remaining := new.amount;
  if new.invoice_id is not null then
    x := app.invoicing_settle_one(new.company_id, new, new.invoice_id, remaining, 'invoice_id');
    if x > 0 then applied := jsonb_build_array(jsonb_build_object('invoice_id', new.invoice_id, 'amount', x)); end if;
    remaining := remaining - x;
  elsif jsonb_array_length(requested) > 0 then
    for e in select value from jsonb_array_elements(requested) loop
      if jsonb_typeof(e) <> 'object' or coalesce(e ->> 'invoice_id', '') !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
         or jsonb_typeof(e -> 'amount') is distinct from 'number' or (e ->> 'amount')::numeric <= 0 then
        raise exception 'allocations[%] must be {invoice_id: uuid, amount: number > 0}', i
          using errcode = '23514', column = 'allocations';
      end if;
      x := app.invoicing_settle_one(new.company_id, new, (e ->> 'invoice_id')::uuid,
        least(round((e ->> 'amount')::numeric, 2), remaining), format('allocations[%s].invoice_id', i));
      if x > 0 then applied := applied || jsonb_build_object('invoice_id', e ->> 'invoice_id', 'amount', x); end if;
      remaining := remaining - x;
      i := i + 1;
    end loop;
  else
    -- FIFO: oldest open invoice of this party first
    for inv in
      select v.id from invoicing.invoices v
      where v.company_id = new.company_id and v.party_id = new.party_id
        and v.type = any (app.invoicing_settles(new.type)) and v.total - v.amount_paid > 0
      order by v.date, v.id
    loop
      exit when remaining <= 0;
      x := app.invoicing_settle_one(new.company_id, new, inv.id, remaining, 'invoice_id');
      if x > 0 then applied := applied || jsonb_build_object('invoice_id', inv.id, 'amount', x); end if;
      remaining := remaining - x;
    end loop;
  end if;
  new.allocations := applied;
  new.unallocated_amount := remaining;
  return new;
end $$;

create trigger rules_settle before insert or update or delete on invoicing.payments
  for each row execute function app.invoicing_payment_rules();

-- Deleting an invoice releases what payments had allocated to it: those amounts become the
-- payments' advances (unallocated_amount), and stock/loyalty effects are reversed elsewhere.
create or replace function app.invoicing_invoice_release_payments() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  update invoicing.payments p set
    allocations = coalesce((select jsonb_agg(e) from jsonb_array_elements(p.allocations) e
                            where (e ->> 'invoice_id')::uuid <> old.id), '[]'),
    unallocated_amount = p.unallocated_amount + (select coalesce(sum((e ->> 'amount')::numeric), 0)
                            from jsonb_array_elements(p.allocations) e where (e ->> 'invoice_id')::uuid = old.id),
    invoice_id = nullif(p.invoice_id, old.id)
  where p.company_id = old.company_id
    and p.allocations @> jsonb_build_array(jsonb_build_object('invoice_id', old.id));
  return old;
end $$;

create trigger rules_release_payments before delete on invoicing.invoices
  for each row execute function app.invoicing_invoice_release_payments();

-- ── expenses ─────────────────────────────────────────────────────────────────────────────────
-- amount is the taxable value; GST split like an invoice line (place_of_supply vs the business
-- state; unknown → intra-state); total = amount + GST. amount_paid = Σ expense_payments.
create or replace function app.invoicing_expense_before() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  m app.invoicing_line_money;
  inter boolean;
begin
  inter := app.invoicing_is_inter_state(new.company_id, new.place_of_supply, null, null);
  m := app.invoicing_price_line(1, new.amount, 0, 0, new.gst_rate, 0, false, inter);
  new.cgst := m.cgst; new.sgst := m.sgst; new.igst := m.igst;
  new.gst_amount := m.gst_amount;
  new.total := m.amount;
  if pg_trigger_depth() = 1 then
    new.amount_paid := case tg_op when 'INSERT' then 0 else old.amount_paid end;
  end if;
  if new.amount_paid > new.total + 0.005 then
    raise exception 'total (%) cannot be less than what has been paid (%)', new.total, new.amount_paid
      using errcode = '23514', column = 'total';
  end if;
  new.status := app.invoicing_derive_status(new.total, new.amount_paid);
  return new;
end $$;

create trigger rules_before before insert or update on invoicing.expenses
  for each row execute function app.invoicing_expense_before();

create or replace function app.invoicing_expense_payment_after() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  ids uuid[];
  e record;
begin
  ids := array_remove(array[case when tg_op <> 'DELETE' then new.expense_id end,
                            case when tg_op <> 'INSERT' then old.expense_id end], null);
  for e in
    select x.id, x.total from invoicing.expenses x
    where x.company_id = coalesce(new.company_id, old.company_id) and x.id = any (ids)
    order by x.id for update
  loop
    update invoicing.expenses x set amount_paid = s.paid
    from (select coalesce(sum(p.amount), 0) as paid from invoicing.expense_payments p
          where p.company_id = coalesce(new.company_id, old.company_id) and p.expense_id = e.id) s
    where x.company_id = coalesce(new.company_id, old.company_id) and x.id = e.id
      and x.amount_paid is distinct from s.paid;
  end loop;
  return null;
exception when check_violation then
  -- the expense's own check names 'total'; for a payment the field at fault is its amount
  raise exception 'amount: payments would exceed the expense total'
    using errcode = '23514', column = 'amount';
end $$;

create trigger rules_settle after insert or update or delete on invoicing.expense_payments
  for each row execute function app.invoicing_expense_payment_after();
