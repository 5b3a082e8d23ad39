// GET/POST /v1/companies and POST /v1/companies/<id>/members. Tenancy changes go through the
// security definer functions of the schema (they check the caller's role); a new user has no
// company yet, so these routes do not require an active one.
import type { Hono } from 'hono';
import { z } from 'zod';
import { HttpError } from '../../edge/mod.ts';
import type { AppDeps, AppEnv } from './http/app-env.ts';
import { jsonResponse } from './http/respond.ts';
import { asCaller } from './http/session.ts';
import { readJson } from './engine/body.ts';
import { isUuid } from './query/coerce.ts';

export const ROLES = ['owner', 'admin', 'accountant', 'staff', 'viewer'] as const;

export const createCompanyBody = z.object({ name: z.string().trim().min(1).max(200) }).strict();
export const addMemberBody = z.object({ email: z.email(), role: z.enum(ROLES).default('staff') }).strict();

function parseBody<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  if (issue.code === 'unrecognized_keys') throw new HttpError(400, `Unknown field '${issue.keys[0]}'`);
  const field = String(issue.path[0] ?? 'body');
  throw new HttpError(400, `Invalid value for field '${field}': ${issue.message}`);
}

export function companyRoutes(app: Hono<AppEnv>, deps: AppDeps): void {
  const { ctx } = deps;

  app.get('/v1/companies', async (c) => {
    const caller = c.var.caller;
    const rows = await asCaller(ctx, caller, ({ tx }) => tx`
      select c.id, c.name, m.role, c.created_at, c.updated_at,
             c.id = app.active_company_id() as is_active
      from invoicing.companies c
      join invoicing.memberships m on m.company_id = c.id and m.user_id = ${caller.userId} and m.status = 'active'
      order by m.created_at, m.id`);
    return jsonResponse({ data: rows, meta: { count: rows.length } });
  });

  app.post('/v1/companies', async (c) => {
    const { name } = parseBody(createCompanyBody, await readJson(c.req.raw));
    const company = await asCaller(ctx, c.var.caller, async ({ tx }) => {
      const [{ id }] = await tx`select app.invoicing_create_company(${name}) as id`;
      const [row] = await tx`select id, name, created_at, updated_at from invoicing.companies where id = ${id}`;
      return { ...row, role: 'owner' };
    });
    return jsonResponse({ data: company }, 201);
  });

  app.post('/v1/companies/:id/members', async (c) => {
    const companyId = c.req.param('id');
    if (!isUuid(companyId)) throw new HttpError(400, `Invalid company id '${companyId}': expected a uuid`);
    const { email, role } = parseBody(addMemberBody, await readJson(c.req.raw));
    const member = await asCaller(ctx, c.var.caller, async ({ tx }) => {
      const [{ id }] = await tx`select app.invoicing_add_member(${companyId}, ${email}, ${role}) as id`;
      return { id, company_id: companyId.toLowerCase(), email, role, status: 'active' };
    });
    return jsonResponse({ data: member }, 201);
  });
}
