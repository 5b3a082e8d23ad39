// GET /v1/me: who is calling, in which company, with which permissions. Permissions come from
// the same SQL helpers the RLS policies use, so the answer cannot drift from what is enforced.
import type { Hono } from 'hono';
import type { AppDeps, AppEnv } from './http/app-env.ts';
import { jsonResponse } from './http/respond.ts';
import { inCompany } from './http/session.ts';
import type { Claims } from '../../edge/mod.ts';


function profileOf(claims: Claims) {
  const meta = (claims.user_metadata ?? {}) as Record<string, unknown>;
  const email = typeof claims.email === 'string' ? claims.email : null;
  const name = [meta.full_name, meta.name, meta.display_name].find((v) => typeof v === 'string') ?? email?.split('@')[0] ?? null;
  return { name, email, phone: typeof claims.phone === 'string' && claims.phone ? claims.phone : null, metadata: meta };
}

export function meRoutes(app: Hono<AppEnv>, deps: AppDeps): void {
  app.get('/v1/me', async (c) => {
    const caller = c.var.caller;
    const paths = deps.resources.map((r) => r.path);
    const data = await inCompany(deps.ctx, caller, async ({ tx, companyId }) => {
      const [memberships, perms] = await Promise.all([
        tx`
          select m.id, m.company_id, c.name as company_name, m.role, m.permissions, m.status, m.created_at
          from invoicing.memberships m join invoicing.companies c on c.id = m.company_id
          where m.user_id = ${caller.userId} and m.status = 'active'
          order by m.created_at, m.id`,
        tx`
          select r.path, app.can_read(app.active_company_id(), r.path) as read,
                 app.can_write(app.active_company_id(), r.path) as write
          from unnest(${paths}::text[]) as r(path)`,
      ]);
      const active = await companyId;
      const membership = memberships.find((m) => m.company_id === active);
      const permissions: Record<string, { read: boolean; write: boolean }> = {};
      const readOnly = new Set(deps.resources.filter((r) => r.readOnly).map((r) => r.path));
      for (const p of perms) permissions[p.path] = { read: p.read, write: p.write && !readOnly.has(p.path) };
      return {
        user: {
          id: caller.userId,
          email: caller.claims.email ?? null,
          role: caller.claims.role,
          app_metadata: caller.claims.app_metadata ?? {},
          user_metadata: caller.claims.user_metadata ?? {},
        },
        profile: profileOf(caller.claims),
        companyId: active,
        company: membership ? { id: active, name: membership.company_name, role: membership.role } : null,
        role: membership?.role ?? null,
        memberships: memberships.map((m) => ({
          id: m.id,
          companyId: m.company_id,
          companyName: m.company_name,
          role: m.role,
          permissions: m.permissions,
          status: m.status,
          createdAt: m.created_at,
        })),
        permissions,
      };
    });
    return jsonResponse({ data });
  });
}
