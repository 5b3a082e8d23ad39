-- Invoicing: the read-only `members` resource, a view of the active company's memberships with
-- each user's name and email.
--
-- Not security_invoker: `authenticated` cannot read auth.users (as on hosted Supabase), so the
-- view runs as its owner and does the tenancy filtering itself, with the same helpers as the
-- tables' policies.
create view invoicing.members as
select
  m.id,
  m.company_id,
  m.user_id,
  coalesce(u.raw_user_meta_data ->> 'full_name', u.raw_user_meta_data ->> 'name',
    u.raw_user_meta_data ->> 'display_name', u.email)::text as name,
  u.email::text as email,
  m.role,
  m.permissions,
  m.status,
  m.created_at,
  m.updated_at
from invoicing.memberships m
join auth.users u on u.id = m.user_id
where m.company_id = (select app.active_company_id())
  and (select app.can_read(app.active_company_id(), 'members'));

revoke all on invoicing.members from anon, authenticated;
grant select on invoicing.members to authenticated, service_role;
