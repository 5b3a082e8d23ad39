-- Expense-splitting service: the SQL entry points the api-* functions call.
-- Reads and writes of members go through RLS (security invoker); only what must look past it is
-- security definer: access checks (to tell 403 from 404), joining by code, the public shared
-- view, and the balance aggregation (one membership check instead of one per expense row).

-- Who the caller is relative to a group, expense or member: zero rows when the id is unknown.
create function app.access_to(p_kind text, p_id uuid)
returns table (group_id uuid, access text)
language sql stable security definer set search_path = '' as $$
  with target as (
    select g.id as group_id from public.expense_groups g where p_kind = 'group' and g.id = p_id
    union all
    select e.group_id from public.expenses e where p_kind = 'expense' and e.id = p_id
    union all
    select m.group_id from public.group_members m where p_kind = 'member' and m.id = p_id
  )
  select t.group_id,
         case
           when g.created_by = (select auth.uid()) then 'creator'
           when exists (select 1 from public.group_members m
                        where m.group_id = t.group_id and m.user_id = (select auth.uid())) then 'member'
           else 'none'
         end
  from target t join public.expense_groups g on g.id = t.group_id
$$;

-- The caller's name for a new membership: profile display name, else the e-mail's local part.
create function app.my_display_name() returns text
language sql stable security definer set search_path = '' as $$
  select coalesce(
    (select nullif(btrim(p.display_name), '') from public.profiles p where p.id = (select auth.uid())),
    (select nullif(split_part(coalesce(u.email, ''), '@', 1), '') from auth.users u where u.id = (select auth.uid())),
    'Member'
  )
$$;

-- Creates a group as the caller (RLS applies) with the caller as its first member.
create function app.create_group(p_name text)
returns table (group_id uuid, member_id uuid, group_name text, group_code text, member_name text)
language plpgsql volatile security invoker set search_path = '' as $$
declare
  v_group uuid;
  v_name text;
  v_code text;
  v_member uuid;
  v_member_name text := app.my_display_name();
begin
  -- The code default picks a free code; a concurrent create can still take it first.
  for attempt in 1..5 loop
    begin
      insert into public.expense_groups (name) values (btrim(p_name))
      returning id, name, code into v_group, v_name, v_code;
      exit;
    exception when unique_violation then
      if attempt = 5 then raise; end if;
    end;
  end loop;
  insert into public.group_members (group_id, user_id, name)
  values (v_group, (select auth.uid()), v_member_name)
  returning id into v_member;
  insert into public.activity_log (group_id, member_id, action, details)
  values (v_group, v_member, 'GROUP_CREATED', format('%s created the group "%s"', v_member_name, v_name));
  return query select v_group, v_member, v_name, v_code, v_member_name;
end $$;

-- Joins the caller to the group with this code. Returns a status instead of raising so that a
-- failed attempt is recorded (a raise would roll the record back): ok | not_found | throttled.
create function app.join_group(p_code text)
returns table (status text, group_id uuid, member_id uuid, group_name text, group_code text,
               member_name text, already_member boolean)
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_uid uuid := (select auth.uid());
  v_group public.expense_groups%rowtype;
  v_member public.group_members%rowtype;
begin
  if v_uid is null then
    raise exception 'A signed-in user is required' using errcode = 'SP401';
  end if;
  if (select count(*) from app.join_failures f
      where f.user_id = v_uid and f.failed_at > now() - interval '15 minutes') >= 20 then
    return query select 'throttled', null::uuid, null::uuid, null::text, null::text, null::text, null::boolean;
    return;
  end if;
  select * into v_group from public.expense_groups g where g.code = p_code;
  if not found then
    insert into app.join_failures (user_id) values (v_uid);
    return query select 'not_found', null::uuid, null::uuid, null::text, null::text, null::text, null::boolean;
    return;
  end if;
  select * into v_member from public.group_members m where m.group_id = v_group.id and m.user_id = v_uid;
  if found then
    return query select 'ok', v_group.id, v_member.id, v_group.name, v_group.code, v_member.name, true;
    return;
  end if;
  insert into public.group_members (group_id, user_id, name)
  values (v_group.id, v_uid, app.my_display_name())
  on conflict on constraint group_members_group_id_user_id_key do nothing
  returning * into v_member;
  if v_member.id is null then
    -- a concurrent join of the same user won the race
    select * into v_member from public.group_members m where m.group_id = v_group.id and m.user_id = v_uid;
    return query select 'ok', v_group.id, v_member.id, v_group.name, v_group.code, v_member.name, true;
    return;
  end if;
  insert into public.activity_log (group_id, member_id, action, details)
  values (v_group.id, v_member.id, 'MEMBER_JOINED', format('%s joined the group', v_member.name));
  return query select 'ok', v_group.id, v_member.id, v_group.name, v_group.code, v_member.name, false;
end $$;

-- Per-member totals in integer cents, for every current member of the group.
--   paid: expenses paid + settlements sent; owed: expense shares + settlements received.
-- Each expense is split with largest-remainder apportionment: every sharer owes
-- floor(cents / k) and the (cents mod k) leftover cents go to the first sharers by member id.
-- Cents and explicit splits come precomputed from app.expense_totals / app.expense_shares
-- (kept in step with expenses by trigger); expenses shared by everyone are
-- not expanded per member: their base shares are one sum, and their leftovers are counted
-- per member rank.
-- Internal: no access check; callers check membership first.
create function app.balance_cents(p_group_id uuid)
returns table (member_id uuid, member_name text, paid_cents bigint, owed_cents bigint)
language sql stable security definer set search_path = '' as $$
  with members as (
    select m.id, m.name, m.created_at, row_number() over (order by m.id) - 1 as rank
    from public.group_members m
    where m.group_id = p_group_id
  ),
  n as (select count(*) as n from members),
  paid as (
    select t.paid_by as id, sum(t.cents) as cents
    from app.expense_totals t where t.group_id = p_group_id
    group by t.paid_by
  ),
  shared as (
    select s.member_id as id, sum(s.cents) as cents
    from app.expense_shares s where s.group_id = p_group_id
    group by s.member_id
  ),
  -- expenses shared by everyone, grouped by their leftover: per group of leftover r, the sum
  -- of base shares and how many expenses hand out r leftover cents
  everyone as (
    select t.cents % n.n as leftover, count(*) as expenses, sum(t.cents / n.n) as base
    from app.expense_totals t, n
    where t.group_id = p_group_id and t.split_all and n.n > 0
    group by 1
  ),
  everyone_total as (
    select coalesce(sum(base), 0) as base, coalesce(sum(expenses), 0) as expenses from everyone
  ),
  -- the member of rank r gets one leftover cent from every expense whose leftover exceeds r
  leftover_cents as (
    select r.rank,
           (select expenses from everyone_total)
             - sum(coalesce(e.expenses, 0)) over (order by r.rank rows unbounded preceding) as cents
    from generate_series(0, (select n from n) - 1) as r(rank)
    left join everyone e on e.leftover = r.rank
  ),
  sent as (
    select s.from_member_id as id, sum((s.amount * 100)::bigint) as cents
    from public.settlements s where s.group_id = p_group_id group by s.from_member_id
  ),
  received as (
    select s.to_member_id as id, sum((s.amount * 100)::bigint) as cents
    from public.settlements s where s.group_id = p_group_id group by s.to_member_id
  )
  select m.id,
         m.name,
         (coalesce(p.cents, 0) + coalesce(se.cents, 0))::bigint,
         (coalesce(sh.cents, 0) + coalesce(re.cents, 0) + t.base + coalesce(l.cents, 0))::bigint
  from members m
  cross join everyone_total t
  left join paid p on p.id = m.id
  left join shared sh on sh.id = m.id
  left join sent se on se.id = m.id
  left join received re on re.id = m.id
  left join leftover_cents l on l.rank = m.rank
  order by m.created_at, m.id
$$;

-- Balances for a member of the group (SP403 otherwise).
create function app.group_balances(p_group_id uuid)
returns table (member_id uuid, member_name text, paid_cents bigint, owed_cents bigint)
language plpgsql stable security definer set search_path = '' as $$
begin
  if not app.is_group_member(p_group_id) then
    raise exception 'You are not a member of this group' using errcode = 'SP403';
  end if;
  return query select * from app.balance_cents(p_group_id);
end $$;

-- The public read-only view. Returns {status} plus the data when status is ok; statuses:
-- not_found | disabled | throttled (10 failures per group and IP in 15 minutes) |
-- wrong_password | ok. Failures are recorded, hence a status instead of an exception.
create function app.shared_view(p_code text, p_password text, p_ip text)
returns jsonb
language plpgsql volatile security definer set search_path = public, extensions, pg_temp as $$
declare
  v_group public.expense_groups%rowtype;
  v_ip text := coalesce(nullif(p_ip, ''), 'unknown');
begin
  select * into v_group from public.expense_groups g where g.code = p_code;
  if not found then
    return jsonb_build_object('status', 'not_found');
  end if;
  if coalesce(v_group.share_password, '') = '' then
    return jsonb_build_object('status', 'disabled');
  end if;
  delete from app.share_view_failures f
  where f.group_id = v_group.id and f.ip = v_ip and f.failed_at <= now() - interval '15 minutes';
  if (select count(*) from app.share_view_failures f where f.group_id = v_group.id and f.ip = v_ip) >= 10 then
    return jsonb_build_object('status', 'throttled');
  end if;
  if p_password is null or crypt(p_password, v_group.share_password) <> v_group.share_password then
    insert into app.share_view_failures (group_id, ip) values (v_group.id, v_ip);
    return jsonb_build_object('status', 'wrong_password');
  end if;
  return jsonb_build_object(
    'status', 'ok',
    'group_name', v_group.name,
    'group_code', v_group.code,
    'members', coalesce((
      select jsonb_agg(jsonb_build_object('id', m.id, 'name', m.name) order by m.created_at, m.id)
      from public.group_members m where m.group_id = v_group.id), '[]'::jsonb),
    'expenses', coalesce((
      select jsonb_agg(to_jsonb(e) order by e.created_at desc, e.id desc)
      from public.expenses e where e.group_id = v_group.id), '[]'::jsonb),
    'balances', coalesce((
      select jsonb_agg(to_jsonb(b)) from app.balance_cents(v_group.id) b), '[]'::jsonb)
  );
end $$;

-- ── execute privileges: nothing in app is callable unless granted here ──────────────────
revoke execute on all functions in schema app from public;
grant execute on function
  app.is_group_member(uuid), app.is_group_creator(uuid),
  app.my_group_ids(), app.my_created_group_ids(), app.my_budget_ids(),
  app.access_to(text, uuid), app.my_display_name(), app.free_group_code(),
  app.create_group(text), app.join_group(text), app.group_balances(uuid)
  to authenticated, service_role;
grant execute on function app.shared_view(text, text, text) to anon, authenticated, service_role;
