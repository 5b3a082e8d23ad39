// api-shared-view: the public read-only view, by group code and share password, with only the
// apikey. Runs as `anon` through app.shared_view (security definer), which also keeps the
// per-group-and-IP failure throttle in Postgres.
import { z } from 'zod';
import { HttpError, withClaims, type EdgeContext } from '../../../edge/mod.ts';
import { createFunctionApp } from '../function-app.ts';
import { centsFromNumeric, centsToNumber } from '../money.ts';
import { toExpense } from '../rows.ts';
import { parse, readJsonBody } from '../validation.ts';
import { memberCents, settlementView } from './settlements.ts';

const body = z.object({
  code: z.string({ message: 'must be a string' }).max(20, 'must be at most 20 characters'),
  password: z.string({ message: 'must be a string' }).max(200, 'must be at most 200 characters'),
});

const FAILURES: Record<string, HttpError> = {
  not_found: new HttpError(404, 'Group not found'),
  disabled: new HttpError(403, 'Sharing is not enabled for this group'),
  wrong_password: new HttpError(401, 'Wrong password'),
  throttled: new HttpError(429, 'Too many failed attempts; try again in 15 minutes', { 'retry-after': '900' }),
};

/** The client address the gateway saw (x-real-ip is set by it, never taken from the client). */
function clientIp(request: Request): string {
  return request.headers.get('x-real-ip') ?? request.headers.get('x-forwarded-for')?.split(',')[0].trim() ?? 'unknown';
}

export function createSharedViewApp(ctx: EdgeContext) {
  return createFunctionApp('api-shared-view', {
    '/': {
      POST: async (c) => {
        const input = parse(body, await readJsonBody(c.req.raw));
        const ip = clientIp(c.req.raw);
        const view = await withClaims(ctx.sql, { role: 'anon' }, async (tx) => {
          const [row] = await tx`select app.shared_view(${input.code}, ${input.password}, ${ip}) as view`;
          return row.view as Record<string, unknown>;
        });
        const failure = FAILURES[view.status as string];
        if (failure) throw failure;
        const rawExpenses = view.expenses as Record<string, unknown>[];
        const expenses = rawExpenses.map(toExpense);
        const { balances } = settlementView(memberCents(view.balances as Record<string, unknown>[]), 'greedy');
        const totalCents = rawExpenses.reduce((sum, e) => sum + centsFromNumeric(String(e.amount)), 0);
        return c.json({
          group_name: view.group_name,
          group_code: view.group_code,
          members: view.members,
          expenses,
          balances,
          total_expenses: centsToNumber(totalCents),
        });
      },
    },
  });
}
