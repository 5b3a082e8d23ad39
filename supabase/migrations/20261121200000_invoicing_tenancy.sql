-- Invoicing service, part 1: tenancy. Companies, memberships, licences, the policy helpers in
-- the private schema `app`, and `app.invoicing_secure_table`, which gives every resource table
-- the same triggers, row-level security and grants (so no table can be forgotten).
--
-- Request model: the API runs each request in one transaction as role `authenticated`, with
-- `request.jwt.claims` (→ auth.uid()) and `app.company_id` (X-Company-Id, or '' for "default")
-- set locally. Everything below derives the active company from those two settings.

create schema if not exists invoicing;
grant usage on schema invoicing to authenticated, anon, service_role;

-- Private helpers; the splitting service uses this schema too, hence `if not exists` and the
-- `invoicing_` prefix on everything that is not a policy helper.
create schema if not exists app;
grant usage on schema app to authenticated, anon, service_role;

-- ── tables ──────────────────────────────────────────────────────────────────────────────

create table invoicing.companies (
  id uuid primary key default gen_random_uuid(),
  name text not null check (length(trim(name)) > 0),
  created_by uuid references auth.users (id) on delete set null default auth.uid(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table invoicing.memberships (
  id uuid primary key default gen_random_uuid(),
  company_id uuid not null references invoicing.companies (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  role text not null default 'staff'
    check (role in ('owner', 'admin', 'accountant', 'staff', 'viewer')),
  -- Per-resource overrides: {"invoices": {"read": true, "write": false}, …}. Keys are resource
  -- paths; a missing key means the role's default.
  permissions jsonb not null default '{}' check (jsonb_typeof(permissions) = 'object'),
  status text not null default 'active' check (status in ('active', 'invited', 'disabled')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (company_id, user_id)
);
-- "default company = first membership": this index answers it without a sort.
create index memberships_user_first_idx on invoicing.memberships (user_id, created_at, id);

-- ── policy helpers (stable, security definer: they read memberships past its own RLS) ──────

-- The company of this request: the X-Company-Id one if the caller is an active member of it,
-- else (setting empty) the caller's first active membership, else null (= no access at all).
create or replace function app.active_company_id() returns uuid
language sql stable security definer set search_path = '' as $$
  with requested as (
    select nullif(current_setting('app.company_id', true), '') as raw
  )
  select case
    when (select raw from requested) is null then (
      select m.company_id from invoicing.memberships m
      where m.user_id = auth.uid() and m.status = 'active'
      order by m.created_at, m.id
      limit 1)
    -- a malformed id is "not a company you belong to", not a cast error
    when (select raw from requested) ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then (
      select m.company_id from invoicing.memberships m
      where m.user_id = auth.uid() and m.status = 'active'
        and m.company_id = (select raw from requested)::uuid)
  end
$$;

create or replace function app.is_company_member(p_company_id uuid) returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (
    select from invoicing.memberships m
    where m.company_id = p_company_id and m.user_id = auth.uid() and m.status = 'active')
$$;

-- Owner/admin: always. Viewer: never. Accountant/staff: yes unless the resource's override
-- says {"write": false}.
create or replace function app.can_write(p_company_id uuid, p_resource text) returns boolean
language sql stable security definer set search_path = '' as $$
  select coalesce((
    select case
      when m.role in ('owner', 'admin') then true
      when m.role = 'viewer' then false
      else coalesce((m.permissions -> p_resource ->> 'write')::boolean, true)
    end
    from invoicing.memberships m
    where m.company_id = p_company_id and m.user_id = auth.uid() and m.status = 'active'), false)
$$;

-- Owner/admin: always. Others: yes unless the resource's override says {"read": false}.
create or replace function app.can_read(p_company_id uuid, p_resource text) returns boolean
language sql stable security definer set search_path = '' as $$
  select coalesce((
    select case
      when m.role in ('owner', 'admin') then true
      else coalesce((m.permissions -> p_resource ->> 'read')::boolean, true)
    end
    from invoicing.memberships m
    where m.company_id = p_company_id and m.user_id = auth.uid() and m.status = 'active'), false)
$$;

grant execute on function app.active_company_id(), app.is_company_member(uuid),
  app.can_write(uuid, text), app.can_read(uuid, text) to authenticated, service_role;

-- Display name of a user for logs and the members view.
create or replace function app.invoicing_user_name(p_user_id uuid) returns text
language sql stable security definer set search_path = '' as $$
  select coalesce(
    u.raw_user_meta_data ->> 'full_name',
    u.raw_user_meta_data ->> 'name',
    u.raw_user_meta_data ->> 'display_name',
    u.email)
  from auth.users u where u.id = p_user_id
$$;

-- ── trigger functions shared by every resource table ────────────────────────────────────

create or replace function app.invoicing_touch() returns trigger
language plpgsql as $$
begin
  new.updated_at := now();
  new.created_at := old.created_at;  -- history is not editable
  return new;
end $$;

-- company_id defaults to the active company (column default); this trigger turns "no active
-- company" into a clear error instead of a not-null violation. A different company_id is
-- refused by the RLS WITH CHECK (it must equal the active company).
create or replace function app.invoicing_require_company() returns trigger
language plpgsql as $$
begin
  if new.company_id is null then
    new.company_id := app.active_company_id();
  end if;
  if new.company_id is null then
    raise exception 'no active company: the caller is not a member of the requested company'
      using errcode = '42501';
  end if;
  return new;
end $$;

-- The audit trail, written in the mutation's own transaction. TG_ARGV[0] = resource path,
-- TG_ARGV[1] = the column that names a row in the summary (chosen once, by invoicing_secure_table).
-- Statement-level with transition tables: a bulk insert of 500 lines writes its 500 entries in
-- one INSERT … SELECT instead of 500 trigger calls (about half the cost of the whole insert).
-- security definer: activity_log grants no writes to `authenticated`.
create or replace function app.invoicing_log_activity() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := auth.uid();
  who text := app.invoicing_user_name(uid);
  what text := replace(tg_argv[0], '-', ' ');
begin
  if tg_op = 'INSERT' then
    insert into invoicing.activity_log
      (company_id, user_id, user_name, action, entity_type, entity_id, summary)
    select (r ->> 'company_id')::uuid, uid, who, 'create', tg_argv[0], (r ->> 'id')::uuid,
      format('Created %s: %s', what, coalesce(r ->> tg_argv[1], r ->> 'id'))
    from (select to_jsonb(n) as r from new_rows n) s;
  elsif tg_op = 'UPDATE' then
    -- changes = the fields that differ, {field: {old, new}}; a no-op update is not an event
    insert into invoicing.activity_log
      (company_id, user_id, user_name, action, entity_type, entity_id, summary, changes)
    select (s.rn ->> 'company_id')::uuid, uid, who, 'update', tg_argv[0], (s.rn ->> 'id')::uuid,
      format('Updated %s: %s', what, coalesce(s.rn ->> tg_argv[1], s.rn ->> 'id')), d.diff
    from (select to_jsonb(n) as rn, to_jsonb(o) as ro
          from new_rows n join old_rows o on o.id = n.id) s
    cross join lateral (
      select jsonb_object_agg(e.key, jsonb_build_object('old', s.ro -> e.key, 'new', e.value)) as diff
      from jsonb_each(s.rn) e
      where e.key <> 'updated_at' and e.value is distinct from s.ro -> e.key) d
    where d.diff is not null;
  else
    insert into invoicing.activity_log
      (company_id, user_id, user_name, action, entity_type, entity_id, summary)
    select (r ->> 'company_id')::uuid, uid, who, 'delete', tg_argv[0], (r ->> 'id')::uuid,
      format('Deleted %s: %s', what, coalesce(r ->> tg_argv[1], r ->> 'id'))
    from (select to_jsonb(o) as r from old_rows o) s
    -- deleting a company cascades to its rows; their entries would reference it
    where exists (select from invoicing.companies c where c.id = (s.r ->> 'company_id')::uuid);
  end if;
  return null;
end $$;

-- ── one call per resource table: triggers + RLS + grants ────────────────────────────────
-- p_writable = false: read-only resource (no write grants or policies at all).
-- p_log = false: tables the system writes (the logs themselves).
create or replace function app.invoicing_secure_table(
  p_table text, p_resource text, p_writable boolean default true, p_log boolean default true
) returns void
language plpgsql as $$
declare
  t text := format('invoicing.%I', p_table);
  active text := '(select app.active_company_id())';
  readable text := format('(select app.can_read(app.active_company_id(), %L))', p_resource);
  writable text := format('(select app.can_write(app.active_company_id(), %L))', p_resource);
  label text;
begin
  -- the first of these columns the table has names its rows in activity-log summaries
  select c into label
  from unnest(array['name', 'invoice_number', 'doc_number', 'title', 'business_name', 'item_name',
    'payment_number', 'expense_number', 'order_number', 'kot_number', 'customer_name', 'url',
    'display_name', 'store_name', 'plan', 'event']) with ordinality as u (c, i)
  where exists (select from pg_attribute a
                where a.attrelid = t::regclass and a.attname = u.c and not a.attisdropped)
  order by u.i limit 1;
  execute format('create trigger touch before update on %s for each row execute function app.invoicing_touch()', t);
  execute format('create trigger require_company before insert on %s for each row execute function app.invoicing_require_company()', t);
  if p_log then
    execute format('create trigger log_insert after insert on %s referencing new table as new_rows for each statement execute function app.invoicing_log_activity(%L, %L)', t, p_resource, coalesce(label, 'id'));
    execute format('create trigger log_update after update on %s referencing old table as old_rows new table as new_rows for each statement execute function app.invoicing_log_activity(%L, %L)', t, p_resource, coalesce(label, 'id'));
    execute format('create trigger log_delete after delete on %s referencing old table as old_rows for each statement execute function app.invoicing_log_activity(%L, %L)', t, p_resource, coalesce(label, 'id'));
  end if;

  execute format('alter table %s enable row level security', t);
  execute format('revoke all on %s from anon, authenticated', t);
  execute format('grant all on %s to service_role', t);
  -- Policies evaluate the helpers once per statement (uncorrelated sub-selects = InitPlans).
  execute format('create policy read on %s for select to authenticated using (company_id = %s and %s)',
    t, active, readable);
  if p_writable then
    execute format('grant select, insert, update, delete on %s to authenticated', t);
    execute format('create policy add on %s for insert to authenticated with check (company_id = %s and %s)',
      t, active, writable);
    -- USING without the write check: a viewer's update of a visible row then fails the
    -- WITH CHECK (an error → 403) instead of silently matching nothing (→ 404).
    execute format('create policy change on %s for update to authenticated using (company_id = %s) with check (company_id = %s and %s)',
      t, active, active, writable);
    execute format('create policy remove on %s for delete to authenticated using (company_id = %s and %s)',
      t, active, writable);
  else
    execute format('grant select on %s to authenticated', t);
  end if;
end $$;
revoke all on function app.invoicing_secure_table(text, text, boolean, boolean) from public;

-- ── companies, memberships, licences: their own policies ───────────────────────────────

create trigger touch before update on invoicing.companies
  for each row execute function app.invoicing_touch();
create trigger touch before update on invoicing.memberships
  for each row execute function app.invoicing_touch();

alter table invoicing.companies enable row level security;
alter table invoicing.memberships enable row level security;
revoke all on invoicing.companies, invoicing.memberships from anon, authenticated;
grant all on invoicing.companies, invoicing.memberships to service_role;
-- Writes go through app.invoicing_create_company / app.invoicing_add_member (they check roles).
grant select on invoicing.companies, invoicing.memberships to authenticated;

create policy read on invoicing.companies for select to authenticated
  using ((select app.is_company_member(id)));
-- Your own memberships (for /me and /companies) and those of the active company.
create policy read on invoicing.memberships for select to authenticated
  using (user_id = (select auth.uid()) or company_id = (select app.active_company_id()));

create table invoicing.licenses (
  id uuid primary key default gen_random_uuid(),
  company_id uuid not null default app.active_company_id()
    references invoicing.companies (id) on delete cascade,
  plan text not null default 'trial',
  status text not null default 'trial' check (status in ('trial', 'active', 'expired', 'cancelled')),
  starts_at timestamptz not null default now(),
  expires_at timestamptz,
  amount numeric(14,2) not null default 0 check (amount >= 0),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index licenses_company_starts_idx on invoicing.licenses (company_id, starts_at desc, id);
select app.invoicing_secure_table('licenses', 'licenses', p_writable => false, p_log => false);
