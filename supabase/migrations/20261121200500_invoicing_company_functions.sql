-- Invoicing: the only ways an API caller changes tenancy. Companies and memberships grant no
-- writes to `authenticated`, so these security definer functions do the role checks.

-- POST /v1/companies: a company owned by the caller, with its business profile and a trial
-- licence, so every singleton the API expects exists from the start.
create or replace function app.invoicing_create_company(p_name text) returns uuid
language plpgsql volatile security definer set search_path = '' as $$
declare
  uid uuid := auth.uid();
  new_id uuid;
begin
  if uid is null then
    raise exception 'not signed in' using errcode = '42501';
  end if;
  if p_name is null or length(trim(p_name)) = 0 then
    raise exception 'name: a company needs a name' using errcode = '23514';
  end if;
  insert into invoicing.companies (name, created_by) values (trim(p_name), uid) returning id into new_id;
  insert into invoicing.memberships (company_id, user_id, role) values (new_id, uid, 'owner');
  insert into invoicing.business_profile (company_id, business_name) values (new_id, trim(p_name));
  insert into invoicing.licenses (company_id, plan, status, starts_at, expires_at)
  values (new_id, 'trial', 'trial', now(), now() + interval '30 days');
  return new_id;
end $$;

-- POST /v1/companies/<id>/members {email, role}: an owner or admin adds an existing user.
-- Only an owner may make another owner. Errors: 42501 not allowed, P0002 no such user,
-- 23505 already a member, 23514 bad role.
create or replace function app.invoicing_add_member(p_company_id uuid, p_email text, p_role text)
returns uuid
language plpgsql volatile security definer set search_path = '' as $$
declare
  caller_role text;
  target uuid;
  new_id uuid;
begin
  select m.role into caller_role from invoicing.memberships m
  where m.company_id = p_company_id and m.user_id = auth.uid() and m.status = 'active';
  if caller_role is null or caller_role not in ('owner', 'admin') then
    raise exception 'only an owner or admin of the company can add members' using errcode = '42501';
  end if;
  if p_role = 'owner' and caller_role <> 'owner' then
    raise exception 'only an owner can add an owner' using errcode = '42501';
  end if;
  select u.id into target from auth.users u where lower(u.email) = lower(trim(p_email));
  if target is null then
    raise exception 'email: no user with that email' using errcode = 'P0002';
  end if;
  insert into invoicing.memberships (company_id, user_id, role)
  values (p_company_id, target, coalesce(p_role, 'staff'))
  returning id into new_id;
  return new_id;
end $$;

revoke all on function app.invoicing_create_company(text), app.invoicing_add_member(uuid, text, text) from public;
grant execute on function app.invoicing_create_company(text), app.invoicing_add_member(uuid, text, text)
  to authenticated, service_role;
