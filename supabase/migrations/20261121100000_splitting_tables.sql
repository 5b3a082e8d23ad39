-- Expense-splitting service: the tables of spec/splitting-api.md.
-- Money is numeric(14,2); every group-scoped table has an index on group_id.

create extension if not exists pgcrypto;

-- Private schema for policy helpers and the security-definer entry points the functions call.
-- Not exposed through the REST API; callers get USAGE and EXECUTE on named functions only.
create schema if not exists app;
grant usage on schema app to anon, authenticated, service_role;

create table public.profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  display_name text not null,
  created_at timestamptz not null default now()
);

create table public.expense_groups (
  id uuid primary key default gen_random_uuid(),
  name text not null check (length(btrim(name)) between 1 and 100),
  code text not null unique check (code ~ '^[0-9]{4}$'),
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  -- Only ever a bcrypt hash (see the hashing trigger); the column is not readable by API roles.
  share_password text,
  -- Derived so that callers can learn whether sharing is on without reading the hash.
  sharing_enabled boolean generated always as (coalesce(share_password, '') <> '') stored,
  created_at timestamptz not null default now()
);
create index expense_groups_created_by_idx on public.expense_groups (created_by);

create table public.group_members (
  id uuid primary key default gen_random_uuid(),
  group_id uuid not null references public.expense_groups (id) on delete cascade,
  -- null for members added by name, without an account
  user_id uuid references auth.users (id) on delete set null,
  name text not null check (length(btrim(name)) between 1 and 100),
  created_at timestamptz not null default now(),
  unique (group_id, user_id)
);
create index group_members_group_id_idx on public.group_members (group_id);
create index group_members_user_id_idx on public.group_members (user_id);

create table public.expenses (
  id uuid primary key default gen_random_uuid(),
  group_id uuid not null references public.expense_groups (id) on delete cascade,
  -- NO ACTION (not RESTRICT): checked at statement end, so deleting the whole group cascades
  -- cleanly while removing a single member who paid is refused.
  paid_by uuid not null references public.group_members (id),
  amount numeric(14, 2) not null check (amount > 0),
  description text not null check (length(description) <= 500),
  -- Member ids, stored sorted and distinct (trigger); empty means every member of the group.
  split_among uuid[] not null default '{}' check (array_position(split_among, null) is null),
  category text check (category in ('food', 'transport', 'accommodation', 'entertainment',
                                    'shopping', 'utilities', 'health', 'other')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index expenses_group_id_created_at_idx on public.expenses (group_id, created_at desc);
create index expenses_paid_by_idx on public.expenses (paid_by);

create table public.activity_log (
  id uuid primary key default gen_random_uuid(),
  group_id uuid not null references public.expense_groups (id) on delete cascade,
  -- No foreign key: the log is immutable and keeps the id of a member even after removal.
  member_id uuid,
  action text not null check (action in ('GROUP_CREATED', 'MEMBER_JOINED', 'EXPENSE_ADDED',
    'EXPENSE_CREATED', 'EXPENSE_UPDATED', 'EXPENSE_DELETED',
    -- beyond the spec: recorded settlements and member management
    'SETTLEMENT_RECORDED', 'MEMBER_RENAMED', 'MEMBER_REMOVED')),
  details text,
  created_at timestamptz not null default clock_timestamp()
);
create index activity_log_group_id_created_at_idx on public.activity_log (group_id, created_at desc);

create table public.settlements (
  id uuid primary key default gen_random_uuid(),
  group_id uuid not null references public.expense_groups (id) on delete cascade,
  from_member_id uuid not null references public.group_members (id),
  to_member_id uuid not null references public.group_members (id),
  amount numeric(14, 2) not null check (amount > 0),
  settled_by uuid references public.group_members (id) on delete set null,
  created_at timestamptz not null default now(),
  check (from_member_id <> to_member_id)
);
create index settlements_group_id_idx on public.settlements (group_id);
create index settlements_from_member_id_idx on public.settlements (from_member_id);
create index settlements_to_member_id_idx on public.settlements (to_member_id);

create table public.budgets (
  id uuid primary key default gen_random_uuid(),
  group_id uuid not null references public.expense_groups (id) on delete cascade,
  created_by uuid references public.group_members (id) on delete set null,
  name text not null check (length(btrim(name)) between 1 and 100),
  type text not null check (type in ('personal', 'group')),
  budget_limit numeric(14, 2) check (budget_limit >= 0),
  member_ids uuid[] not null default '{}',
  linked_expense_ids uuid[] not null default '{}',
  created_at timestamptz not null default now()
);
create index budgets_group_id_idx on public.budgets (group_id);

create table public.income_entries (
  id uuid primary key default gen_random_uuid(),
  budget_id uuid not null references public.budgets (id) on delete cascade,
  added_by uuid references public.group_members (id) on delete set null,
  description text not null check (length(description) <= 500),
  amount numeric(14, 2) not null check (amount > 0),
  created_at timestamptz not null default now()
);
create index income_entries_budget_id_idx on public.income_entries (budget_id);

-- Failed shared-view passwords per group and client IP: functions are stateless, so the
-- throttle lives here. Only security-definer functions touch it.
create table app.share_view_failures (
  id bigint generated always as identity primary key,
  group_id uuid not null references public.expense_groups (id) on delete cascade,
  ip text not null,
  failed_at timestamptz not null default now()
);
create index share_view_failures_lookup_idx on app.share_view_failures (group_id, ip, failed_at);

-- Failed join codes per user, so the 10,000 codes cannot be walked quickly.
create table app.join_failures (
  id bigint generated always as identity primary key,
  user_id uuid not null,
  failed_at timestamptz not null default now()
);
create index join_failures_lookup_idx on app.join_failures (user_id, failed_at);
revoke all on app.share_view_failures, app.join_failures from public, anon, authenticated;
