// api-activity: the group's log, newest first; limit defaults to 50 and is capped at 200.
import { badRequest, type EdgeContext } from '../../../edge/mod.ts';
import { requireAccess } from '../access.ts';
import { asCaller, requireUser } from '../caller.ts';
import { createFunctionApp } from '../function-app.ts';
import { queryUuid } from '../validation.ts';

export const DEFAULT_ACTIVITY_LIMIT = 50;
export const MAX_ACTIVITY_LIMIT = 200;

function limitParam(url: URL): number {
  const raw = url.searchParams.get('limit');
  if (raw === null || raw === '') return DEFAULT_ACTIVITY_LIMIT;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw badRequest('limit must be a positive integer');
  return Math.min(Number(raw), MAX_ACTIVITY_LIMIT);
}

export function createActivityApp(ctx: EdgeContext) {
  return createFunctionApp('api-activity', {
    '/': {
      GET: async (c) => {
        const url = new URL(c.req.url);
        const groupId = queryUuid(url, 'group_id');
        const limit = limitParam(url);
        const rows = await asCaller(c, ctx, async (tx) => {
          await requireAccess(tx, 'group', groupId);
          return tx`select id, action, details, member_id, created_at from activity_log
                    where group_id = ${groupId} order by created_at desc, id desc limit ${limit}`;
        });
        return c.json({
          activities: rows.map((r) => ({ ...r, created_at: new Date(r.created_at).toISOString() })),
        });
      },
    },
  }, { before: requireUser(ctx) });
}
