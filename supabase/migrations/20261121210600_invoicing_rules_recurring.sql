-- Invoicing business rules, part 7: recurring invoices and the daily jobs.
--
-- A schedule runs while status = active, next_run_date ≤ today and it is within end_date and
-- max_occurrences. Each run creates a sale dated next_run_date (party and lines from the template
-- invoice, else from `items`; GST recomputed by the line triggers, a new number from the series,
-- due next_run_date + due_days), counts the occurrence and advances next_run_date by
-- interval_count × frequency. Monthly-type steps are computed from start_date (date + n months
-- clamps to the month's end, so a schedule that starts on the 31st runs on the 30th in April and
-- on the 31st again in May). Missed runs are caught up one invoice per period.
-- Idempotent: UNIQUE(company_id, recurring_invoice_id, date) plus ON CONFLICT DO NOTHING, and the
-- schedule row is locked while it runs, so a second run on the same day creates nothing.

create or replace function app.invoicing_recurring_step(r invoicing.recurring_invoices, p_occurrence integer)
returns date
language sql immutable set search_path = '' as $$
  select case r.frequency
    when 'daily' then r.start_date + p_occurrence * r.interval_count
    when 'weekly' then r.start_date + 7 * p_occurrence * r.interval_count
    else (r.start_date + make_interval(months => p_occurrence * r.interval_count * case r.frequency
            when 'monthly' then 1 when 'quarterly' then 3 when 'half_yearly' then 6 else 12 end))::date
  end
$$;

-- One run of one locked schedule: returns the new invoice id (null if that date existed).
create or replace function app.invoicing_recurring_run_one(r invoicing.recurring_invoices) returns uuid
language plpgsql security definer set search_path = '' as $$
declare
  tpl invoicing.invoices%rowtype;
  new_id uuid;
begin
  if r.template_invoice_id is not null then
    select * into tpl from invoicing.invoices where company_id = r.company_id and id = r.template_invoice_id;
  end if;
  insert into invoicing.invoices (company_id, type, date, due_date, party_id, party_name, party_gstin,
    party_state, place_of_supply, billing_address, shipping_address, is_reverse_charge,
    recurring_invoice_id, template_id, notes, terms)
  select r.company_id, 'sale', r.next_run_date, r.next_run_date + coalesce(r.due_days, 0),
    coalesce(r.party_id, tpl.party_id),
    coalesce(tpl.party_name, (select p.name from invoicing.parties p where p.company_id = r.company_id and p.id = r.party_id), r.name),
    tpl.party_gstin, tpl.party_state, tpl.place_of_supply, tpl.billing_address, tpl.shipping_address,
    coalesce(tpl.is_reverse_charge, false), r.id, tpl.template_id, tpl.notes, tpl.terms
  on conflict (company_id, recurring_invoice_id, date) where recurring_invoice_id is not null do nothing
  returning id into new_id;
  if new_id is null then
    return null;
  end if;
  if tpl.id is not null then
    insert into invoicing.invoice_items (company_id, invoice_id, item_id, item_name, hsn_code, unit, qty,
      rate, price_incl_tax, discount_pct, discount_amount, gst_rate, sort_order)
    select r.company_id, new_id, l.item_id, l.item_name, l.hsn_code, l.unit, l.qty, l.rate,
      l.price_incl_tax, l.discount_pct, case when l.discount_pct > 0 then 0 else l.discount_amount end,
      l.gst_rate, l.sort_order
    from invoicing.invoice_items l where l.company_id = r.company_id and l.invoice_id = tpl.id;
  else
    insert into invoicing.invoice_items (company_id, invoice_id, item_id, item_name, hsn_code, unit, qty,
      rate, price_incl_tax, discount_pct, discount_amount, gst_rate, sort_order)
    select r.company_id, new_id, l.item_id, coalesce(l.item_name, 'Item'), l.hsn_code, l.unit,
      coalesce(l.qty, 1), coalesce(l.rate, 0), coalesce(l.price_incl_tax, false), coalesce(l.discount_pct, 0),
      coalesce(l.discount_amount, 0), coalesce(l.gst_rate, 0), coalesce(l.sort_order, 0)
    from jsonb_populate_recordset(null::invoicing.invoice_items, r.items) l;
  end if;
  return new_id;
end $$;

-- Runs every due schedule (all companies, or one company / one schedule). Returns how many
-- invoices it created.
create or replace function app.invoicing_run_recurring(
  p_today date default current_date, p_company_id uuid default null, p_id uuid default null
) returns integer
language plpgsql security definer set search_path = '' as $$
declare
  r invoicing.recurring_invoices%rowtype;
  created integer := 0;
  inv uuid;
  nxt date;
begin
  for r in
    select * from invoicing.recurring_invoices s
    where s.status = 'active' and s.next_run_date <= p_today
      and (p_company_id is null or s.company_id = p_company_id) and (p_id is null or s.id = p_id)
    order by s.company_id, s.id
    for update skip locked
  loop
    loop
      exit when r.next_run_date > p_today;
      if (r.end_date is not null and r.next_run_date > r.end_date)
         or (r.max_occurrences is not null and r.occurrences_generated >= r.max_occurrences) then
        r.status := 'completed';
        exit;
      end if;
      inv := app.invoicing_recurring_run_one(r);
      if inv is not null then
        created := created + 1;
        r.last_invoice_id := inv;
      end if;
      r.occurrences_generated := r.occurrences_generated + 1;
      r.last_run_date := r.next_run_date;
      nxt := app.invoicing_recurring_step(r, r.occurrences_generated);
      -- a start date in the past: never step backwards or stand still
      r.next_run_date := greatest(nxt, r.next_run_date + 1);
      if (r.end_date is not null and r.next_run_date > r.end_date)
         or (r.max_occurrences is not null and r.occurrences_generated >= r.max_occurrences) then
        r.status := 'completed';
        exit;
      end if;
    end loop;
    update invoicing.recurring_invoices s set
      occurrences_generated = r.occurrences_generated, last_run_date = r.last_run_date,
      last_invoice_id = r.last_invoice_id, next_run_date = r.next_run_date, status = r.status
    where s.company_id = r.company_id and s.id = r.id;
  end loop;
  return created;
end $$;
revoke all on function app.invoicing_run_recurring(date, uuid, uuid) from public, anon, authenticated;

-- POST /v1/recurring-invoices/:id/run: the same run for one schedule of the caller's active
-- company, for a caller who may write invoices.
create or replace function invoicing.run_recurring_invoice(p_id uuid, p_today date default current_date)
returns integer
language plpgsql security definer set search_path = '' as $$
declare
  company uuid := app.active_company_id();
begin
  if company is null or not app.can_write(company, 'invoices') then
    raise exception 'your role does not allow creating invoices in the active company' using errcode = '42501';
  end if;
  if not exists (select from invoicing.recurring_invoices s where s.company_id = company and s.id = p_id) then
    raise exception 'recurring invoice % not found', p_id using errcode = 'P0002';
  end if;
  return app.invoicing_run_recurring(p_today, company, p_id);
end $$;
revoke all on function invoicing.run_recurring_invoice(uuid, date) from public, anon;
grant execute on function invoicing.run_recurring_invoice(uuid, date) to authenticated, service_role;

-- ── schedule the daily jobs ──────────────────────────────────────────────────────────────────
-- Hosted Supabase: pg_cron is an extension (created here when the server offers it). Locally the
-- platform SQL provides cron.schedule and the local scheduler runs cron.job. Either way the
-- same call registers the jobs (UTC: 00:05 recurring invoices, 00:15 loyalty expiry).
do $$
begin
  if exists (select from pg_available_extensions where name = 'pg_cron')
     and not exists (select from pg_namespace where nspname = 'cron') then
    create extension if not exists pg_cron;
  end if;
  if exists (select from pg_proc p join pg_namespace n on n.oid = p.pronamespace
             where n.nspname = 'cron' and p.proname = 'schedule') then
    perform cron.schedule('invoicing-recurring-invoices', '5 0 * * *', 'select app.invoicing_run_recurring()');
    perform cron.schedule('invoicing-loyalty-expiry', '15 0 * * *', 'select app.invoicing_expire_loyalty()');
  end if;
end $$;
