// api-groups: list my groups, create one, join by code, delete (creator only).
import { z } from 'zod';
import { HttpError, notFound, type EdgeContext } from '../../../edge/mod.ts';
import { requireAccess } from '../access.ts';
import { asCaller, requireUser } from '../caller.ts';
import { createFunctionApp } from '../function-app.ts';
import { nonEmptyText, parse, pathUuid, readJsonBody } from '../validation.ts';

const createBody = z.object({ name: nonEmptyText(100) });
const joinBody = z.object({ code: z.string({ message: 'must be a 4-digit string' }).regex(/^\d{4}$/, 'must be a 4-digit string') });

export function createGroupsApp(ctx: EdgeContext) {
  return createFunctionApp('api-groups', {
    '/': {
      GET: async (c) => {
        const groups = await asCaller(c, ctx, (tx) => tx`
          select g.id as group_id, m.id as member_id, g.name as group_name, g.code as group_code,
                 coalesce(g.created_by = auth.uid(), false) as is_creator,
                 (select count(*)::int from group_members all_m where all_m.group_id = g.id) as member_count,
                 g.created_at
          from group_members m join expense_groups g on g.id = m.group_id
          where m.user_id = auth.uid()
          order by g.created_at desc, g.id`);
        return c.json({ groups });
      },
      POST: async (c) => {
        const body = parse(createBody, await readJsonBody(c.req.raw));
        const [row] = await asCaller(c, ctx, (tx) => tx`
          select group_id, member_id, group_name, group_code, member_name from app.create_group(${body.name})`);
        return c.json(row, 201);
      },
    },
    '/join': {
      POST: async (c) => {
        const body = parse(joinBody, await readJsonBody(c.req.raw));
        const [row] = await asCaller(c, ctx, (tx) => tx`select * from app.join_group(${body.code})`);
        if (row.status === 'not_found') throw notFound('Group not found');
        if (row.status === 'throttled') {
          throw new HttpError(429, 'Too many failed join attempts; try again in 15 minutes', { 'retry-after': '900' });
        }
        const { status: _status, ...joined } = row;
        return c.json(joined, 201);
      },
    },
    '/:group_id': {
      DELETE: async (c) => {
        const groupId = pathUuid(c.req.param('group_id'), 'group_id');
        const name = await asCaller(c, ctx, async (tx) => {
          await requireAccess(tx, 'group', groupId, 'creator', 'Only the group creator can delete the group');
          const [deleted] = await tx`delete from expense_groups where id = ${groupId} returning name`;
          return deleted.name as string;
        });
        return c.json({ message: `Group "${name}" and all its data were deleted` });
      },
    },
  }, { before: requireUser(ctx) });
}
