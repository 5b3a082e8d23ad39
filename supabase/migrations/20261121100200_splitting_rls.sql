-- Expense-splitting service: row level security, deliberately stricter than the spec's access
-- table: a group's rows are visible and writable only to its members; renaming or removing
-- members, deleting the group and share settings only for its creator; profiles only for
-- their owner. Anonymous callers get no table access at all (the shared view goes through a
-- security-definer function).

-- ── helpers: stable, security definer (they read group_members past its own policies) ────
-- Policies use them as `group_id in (select app.my_group_ids())`: an uncorrelated subquery that
-- Postgres runs once per statement and hashes. (`group_id in (select app.my_group_ids())` would be
-- correlated on group_id and so run once per row.)
create function app.my_group_ids() returns setof uuid
language sql stable security definer set search_path = '' as $$
  select m.group_id from public.group_members m where m.user_id = (select auth.uid())
$$;

create function app.my_created_group_ids() returns setof uuid
language sql stable security definer set search_path = '' as $$
  select g.id from public.expense_groups g where g.created_by = (select auth.uid())
$$;

create function app.my_budget_ids() returns setof uuid
language sql stable security definer set search_path = '' as $$
  select b.id from public.budgets b
  join public.group_members m on m.group_id = b.group_id
  where m.user_id = (select auth.uid())
$$;

-- For single checks in functions (not policies).
create function app.is_group_member(p_group_id uuid) returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (
    select 1 from public.group_members m
    where m.group_id = p_group_id and m.user_id = (select auth.uid())
  )
$$;

create function app.is_group_creator(p_group_id uuid) returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (
    select 1 from public.expense_groups g
    where g.id = p_group_id and g.created_by = (select auth.uid())
  )
$$;

-- ── table privileges ────────────────────────────────────────────────────────────────────
revoke all on public.profiles, public.expense_groups, public.group_members, public.expenses,
  public.activity_log, public.settlements, public.budgets, public.income_entries
  from anon, authenticated;

grant select, insert, update on public.profiles to authenticated;
-- share_password is write-only for API roles: no column grant to read it.
grant select (id, name, code, created_by, sharing_enabled, created_at) on public.expense_groups to authenticated;
grant insert (name), update (name, share_password), delete on public.expense_groups to authenticated;
grant select, insert, update, delete on public.group_members, public.expenses, public.budgets,
  public.income_entries to authenticated;
grant select, insert on public.activity_log, public.settlements to authenticated;

alter table public.profiles enable row level security;
alter table public.expense_groups enable row level security;
alter table public.group_members enable row level security;
alter table public.expenses enable row level security;
alter table public.activity_log enable row level security;
alter table public.settlements enable row level security;
alter table public.budgets enable row level security;
alter table public.income_entries enable row level security;

-- ── profiles: owner only ────────────────────────────────────────────────────────────────
create policy profiles_select_own on public.profiles for select to authenticated
  using (id = (select auth.uid()));
create policy profiles_insert_own on public.profiles for insert to authenticated
  with check (id = (select auth.uid()));
create policy profiles_update_own on public.profiles for update to authenticated
  using (id = (select auth.uid())) with check (id = (select auth.uid()));

-- ── expense_groups ──────────────────────────────────────────────────────────────────────
-- The creator sees the row from the start (INSERT … RETURNING runs before they are a member).
create policy expense_groups_select_member on public.expense_groups for select to authenticated
  using (created_by = (select auth.uid()) or id in (select app.my_group_ids()));
create policy expense_groups_insert_self on public.expense_groups for insert to authenticated
  with check (created_by = (select auth.uid()));
create policy expense_groups_update_creator on public.expense_groups for update to authenticated
  using (created_by = (select auth.uid())) with check (created_by = (select auth.uid()));
create policy expense_groups_delete_creator on public.expense_groups for delete to authenticated
  using (created_by = (select auth.uid()));

-- ── group_members: members read; the creator adds, renames and removes ─────────────────
-- (Joining by code goes through app.join_group, a security-definer function.)
-- Own rows too: INSERT … RETURNING of the creator's first membership is checked against this
-- policy before that row counts in app.my_group_ids().
create policy group_members_select_member on public.group_members for select to authenticated
  using (user_id = (select auth.uid()) or group_id in (select app.my_group_ids()));
create policy group_members_insert_creator on public.group_members for insert to authenticated
  with check (group_id in (select app.my_created_group_ids()));
create policy group_members_update_creator on public.group_members for update to authenticated
  using (group_id in (select app.my_created_group_ids())) with check (group_id in (select app.my_created_group_ids()));
create policy group_members_delete_creator on public.group_members for delete to authenticated
  using (group_id in (select app.my_created_group_ids()));

-- ── expenses, budgets: all operations for members ───────────────────────────────────────
create policy expenses_member on public.expenses for all to authenticated
  using (group_id in (select app.my_group_ids())) with check (group_id in (select app.my_group_ids()));
create policy budgets_member on public.budgets for all to authenticated
  using (group_id in (select app.my_group_ids())) with check (group_id in (select app.my_group_ids()));
create policy income_entries_member on public.income_entries for all to authenticated
  using (budget_id in (select app.my_budget_ids())) with check (budget_id in (select app.my_budget_ids()));

-- ── activity_log, settlements: members read and append ─────────────────────────────────
create policy activity_log_select_member on public.activity_log for select to authenticated
  using (group_id in (select app.my_group_ids()));
create policy activity_log_insert_member on public.activity_log for insert to authenticated
  with check (group_id in (select app.my_group_ids()));
create policy settlements_select_member on public.settlements for select to authenticated
  using (group_id in (select app.my_group_ids()));
create policy settlements_insert_member on public.settlements for insert to authenticated
  with check (group_id in (select app.my_group_ids()));

-- ── realtime: group_id filters must match deletes too, hence the full old row ───────────
alter table public.expenses replica identity full;
alter table public.group_members replica identity full;
alter publication supabase_realtime add table public.expenses, public.group_members;
