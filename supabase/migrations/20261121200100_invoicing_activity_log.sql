-- Invoicing: the audit trail. Rows are written only by app.invoicing_log_activity (a trigger on
-- every business table, in the mutation's transaction) and are never updated or deleted.

create table invoicing.activity_log (
  id uuid primary key default gen_random_uuid(),
  company_id uuid not null default app.active_company_id()
    references invoicing.companies (id) on delete cascade,
  user_id uuid,  -- no FK: the trail outlives a deleted user
  user_name text,
  action text not null check (action in ('create', 'update', 'delete')),
  entity_type text not null,
  entity_id uuid,
  summary text,
  changes jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index activity_log_company_created_idx on invoicing.activity_log (company_id, created_at desc, id);
create index activity_log_entity_idx on invoicing.activity_log (company_id, entity_type, entity_id);

-- Immutable for everyone, superusers included. The one exception: the cascade from deleting
-- the company itself (its row is already gone when the cascade reaches the log).
create or replace function app.invoicing_activity_log_immutable() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if tg_op = 'DELETE' and not exists (
    select from invoicing.companies c where c.id = old.company_id) then
    return old;
  end if;
  raise exception 'activity-log is append-only: entries cannot be % d', lower(tg_op)
    using errcode = '42501';
end $$;

create trigger immutable before update or delete on invoicing.activity_log
  for each row execute function app.invoicing_activity_log_immutable();

select app.invoicing_secure_table('activity_log', 'activity-log', p_writable => false, p_log => false);
