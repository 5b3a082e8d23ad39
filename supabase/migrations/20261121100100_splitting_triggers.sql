-- Expense-splitting service: the rules the database enforces for every writer, API or not.
-- Client-facing violations raise custom SQLSTATEs the functions map to HTTP statuses:
-- SP400 → 400, SP403 → 403, SP404 → 404.

-- ── profiles: created at sign-up ────────────────────────────────────────────────────────
create function app.create_profile_for_new_user() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  insert into public.profiles (id, display_name)
  values (
    new.id,
    coalesce(
      nullif(btrim(new.raw_user_meta_data ->> 'display_name'), ''),
      nullif(split_part(coalesce(new.email, ''), '@', 1), ''),
      'User'
    )
  )
  on conflict (id) do nothing;
  return new;
end $$;

create trigger on_auth_user_created_splitting_profile
  after insert on auth.users
  for each row execute function app.create_profile_for_new_user();

-- ── expense_groups: invite codes and share-password hashing ─────────────────────────────
-- A free 4-digit code: a few random probes (cheap while codes are sparse), then one scan of
-- all 10,000 so a nearly full code space still finishes, and a clear error when it is full.
create function app.free_group_code() returns text
language plpgsql volatile security definer set search_path = '' as $$
declare
  candidate text;
begin
  for attempt in 1..8 loop
    candidate := lpad((floor(random() * 10000))::int::text, 4, '0');
    if not exists (select 1 from public.expense_groups g where g.code = candidate) then
      return candidate;
    end if;
  end loop;
  select c into candidate
  from (select lpad(n::text, 4, '0') as c from generate_series(0, 9999) as n) as codes
  where not exists (select 1 from public.expense_groups g where g.code = codes.c)
  order by random()
  limit 1;
  if candidate is null then
    raise exception 'All 10,000 group codes are in use; no new group can be created'
      using errcode = 'SP400';
  end if;
  return candidate;
end $$;

alter table public.expense_groups alter column code set default app.free_group_code();

-- Whatever writes share_password, only a bcrypt hash is stored; empty means sharing off.
-- search_path includes `extensions` because hosted Supabase installs pgcrypto there.
create function app.hash_share_password() returns trigger
language plpgsql set search_path = public, extensions, pg_temp as $$
begin
  if tg_op = 'UPDATE' and new.share_password is not distinct from old.share_password then
    return new;
  end if;
  if coalesce(new.share_password, '') = '' then
    new.share_password := null;
  else
    new.share_password := crypt(new.share_password, gen_salt('bf'));
  end if;
  return new;
end $$;

create trigger expense_groups_hash_share_password
  before insert or update of share_password on public.expense_groups
  for each row execute function app.hash_share_password();

-- ── expenses: updated_at, membership of paid_by / split_among ──────────────────────────
create function app.touch_updated_at() returns trigger
language plpgsql set search_path = '' as $$
begin
  new.updated_at := now();
  return new;
end $$;

create trigger expenses_touch_updated_at
  before update on public.expenses
  for each row execute function app.touch_updated_at();

-- One check for every "this member id must belong to this group" rule, naming the field.
create function app.require_group_member(p_group_id uuid, p_member_id uuid, p_field text) returns void
language plpgsql stable security definer set search_path = '' as $$
begin
  if not exists (select 1 from public.group_members m where m.id = p_member_id and m.group_id = p_group_id) then
    raise exception '% is not a member of this group', p_field using errcode = 'SP400';
  end if;
end $$;

create function app.check_expense_members() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  stranger uuid;
begin
  perform app.require_group_member(new.group_id, new.paid_by, 'paid_by');
  if cardinality(new.split_among) <> (select count(distinct x) from unnest(new.split_among) as x) then
    raise exception 'split_among lists a member more than once' using errcode = 'SP400';
  end if;
  select x into stranger
  from unnest(new.split_among) as x
  where not exists (select 1 from public.group_members m where m.id = x and m.group_id = new.group_id)
  limit 1;
  if stranger is not null then
    raise exception 'split_among contains % which is not a member of this group', stranger
      using errcode = 'SP400';
  end if;
  -- Sorted by id: the leftover cents of a split go to members in this order (see balances).
  new.split_among := array(select x from unnest(new.split_among) as x order by x);
  return new;
end $$;

create trigger expenses_check_members
  before insert or update of group_id, paid_by, split_among on public.expenses
  for each row execute function app.check_expense_members();

-- The balance aggregation reads these two side tables instead of the expenses themselves:
-- integer cents (bigint sums are far cheaper than numeric ones over 100,000 rows) and each
-- sharer's cents of every explicit split precomputed, so a request is a few GROUP BYs instead
-- of unnesting every split_among array. Expenses shared by everyone are not expanded: their
-- sharers change as members join, so app.balance_cents splits them on the fly.
-- (Not generated columns on expenses: PostgreSQL 18 refuses updates when a REPLICA IDENTITY
-- FULL table in a publication has unpublished generated columns.)
create table app.expense_totals (
  expense_id uuid primary key references public.expenses (id) on delete cascade,
  group_id uuid not null,
  paid_by uuid not null,
  cents bigint not null,
  split_all boolean not null
);
create index expense_totals_group_id_idx on app.expense_totals (group_id) include (paid_by, cents, split_all);

create table app.expense_shares (
  expense_id uuid not null references public.expenses (id) on delete cascade,
  group_id uuid not null,
  member_id uuid not null,
  cents bigint not null,
  primary key (expense_id, member_id)
);
create index expense_shares_group_id_idx on app.expense_shares (group_id) include (member_id, cents);
revoke all on app.expense_totals, app.expense_shares from public, anon, authenticated;

create function app.sync_expense_ledger() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_cents bigint := (new.amount * 100)::bigint;
  v_k int := cardinality(new.split_among);
begin
  if tg_op = 'UPDATE' then
    delete from app.expense_totals t where t.expense_id = new.id;
    delete from app.expense_shares s where s.expense_id = new.id;
  end if;
  insert into app.expense_totals (expense_id, group_id, paid_by, cents, split_all)
  values (new.id, new.group_id, new.paid_by, v_cents, v_k = 0);
  if v_k > 0 then
    -- largest remainder: floor(cents / k) each, leftover cents to the first sharers by id
    insert into app.expense_shares (expense_id, group_id, member_id, cents)
    select new.id, new.group_id, x.id, v_cents / v_k + (x.ord <= v_cents % v_k)::int
    from unnest(new.split_among) with ordinality as x(id, ord);
  end if;
  return null;
end $$;

create trigger expenses_sync_ledger
  after insert or update on public.expenses
  for each row execute function app.sync_expense_ledger();

-- ── settlements: both sides and the recorder belong to the group ───────────────────────
create function app.check_settlement_members() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform app.require_group_member(new.group_id, new.from_member_id, 'from_member_id');
  perform app.require_group_member(new.group_id, new.to_member_id, 'to_member_id');
  if new.settled_by is not null then
    perform app.require_group_member(new.group_id, new.settled_by, 'settled_by');
  end if;
  return new;
end $$;

create trigger settlements_check_members
  before insert or update on public.settlements
  for each row execute function app.check_settlement_members();

-- ── group_members: a member whose removal would change balances stays ──────────────────
create function app.guard_member_removal() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  -- Deleting the whole group cascades here after the group row is gone: allow that.
  if not exists (select 1 from public.expense_groups g where g.id = old.group_id) then
    return old;
  end if;
  if exists (select 1 from public.expenses e
             where e.group_id = old.group_id and (e.paid_by = old.id or old.id = any (e.split_among)))
     or exists (select 1 from public.settlements s
                where s.group_id = old.group_id and (s.from_member_id = old.id or s.to_member_id = old.id)) then
    raise exception 'Cannot remove %: they paid or share expenses or settlements, and removing them would change the balances', old.name
      using errcode = 'SP400';
  end if;
  return old;
end $$;

create trigger group_members_guard_removal
  before delete on public.group_members
  for each row execute function app.guard_member_removal();

-- ── activity_log: append-only for everyone ──────────────────────────────────────────────
create function app.refuse_activity_change() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  -- The one way entries disappear: their group is deleted (cascade, group row already gone).
  if tg_op = 'DELETE' then
    if not exists (select 1 from public.expense_groups g where g.id = old.group_id) then
      return old;
    end if;
  end if;
  raise exception 'activity_log is append-only: % is not allowed', tg_op using errcode = 'SP403';
end $$;

create trigger activity_log_append_only
  before update or delete on public.activity_log
  for each row execute function app.refuse_activity_change();

create trigger activity_log_no_truncate
  before truncate on public.activity_log
  for each statement execute function app.refuse_activity_change();
