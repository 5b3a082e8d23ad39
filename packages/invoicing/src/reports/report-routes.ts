// GET /v1/reports/:name: one SQL aggregate of the active company, inside the request's
// transaction so the caller's RLS applies.
import type { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../http/app-env.ts';
import { dataResponse } from '../http/respond.ts';
import { inCompany } from '../http/session.ts';
import { parseReportRequest } from './handle-report.ts';

export function reportRoutes(app: Hono<AppEnv>, { ctx }: AppDeps): void {
  app.get('/v1/reports/:name', async (c) => {
    // an unknown report (404) or a bad parameter (400) is refused before any database work
    const { report, params } = parseReportRequest(c.req.param('name'), new URL(c.req.url).searchParams);
    const data = await inCompany(ctx, c.var.caller, ({ tx }) => report.run(tx, params));
    return dataResponse(JSON.stringify(data), 200);
  });
}
