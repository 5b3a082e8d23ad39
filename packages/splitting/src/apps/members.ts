// api-members: list members; the creator adds (without an account), renames and removes them.
import { z } from 'zod';
import { badRequest, type EdgeContext } from '../../../edge/mod.ts';
import { callerMember, requireAccess } from '../access.ts';
import { logActivity } from '../activity.ts';
import { asCaller, requireUser } from '../caller.ts';
import { createFunctionApp } from '../function-app.ts';
import { toMember } from '../rows.ts';
import { nonEmptyText, parse, pathUuid, queryUuid, readJsonBody, uuid } from '../validation.ts';

const addBody = z.object({ group_id: uuid, name: nonEmptyText(100) });
const renameBody = z.object({ name: nonEmptyText(100) });

export function createMembersApp(ctx: EdgeContext) {
  return createFunctionApp('api-members', {
    '/': {
      GET: async (c) => {
        const groupId = queryUuid(new URL(c.req.url), 'group_id');
        const rows = await asCaller(c, ctx, async (tx) => {
          await requireAccess(tx, 'group', groupId);
          return tx`select id, name, user_id, created_at from group_members
                    where group_id = ${groupId} order by created_at, id`;
        });
        return c.json({ members: rows.map(toMember) });
      },
      POST: async (c) => {
        const body = parse(addBody, await readJsonBody(c.req.raw));
        const member = await asCaller(c, ctx, async (tx) => {
          await requireAccess(tx, 'group', body.group_id, 'creator', 'Only the group creator can add members');
          const actor = await callerMember(tx, body.group_id);
          const [row] = await tx`insert into group_members (group_id, name) values (${body.group_id}, ${body.name})
                                 returning id, name, user_id, created_at`;
          await logActivity(tx, {
            groupId: body.group_id, memberId: actor.id, action: 'MEMBER_JOINED',
            details: `${body.name} was added by ${actor.name}`,
          });
          return toMember(row);
        });
        return c.json({ member }, 201);
      },
    },
    '/:member_id': {
      PUT: async (c) => {
        const memberId = pathUuid(c.req.param('member_id'), 'member_id');
        const body = parse(renameBody, await readJsonBody(c.req.raw));
        const member = await asCaller(c, ctx, async (tx) => {
          const groupId = await requireAccess(tx, 'member', memberId, 'creator', 'Only the group creator can rename members');
          const actor = await callerMember(tx, groupId);
          const [before] = await tx`select name from group_members where id = ${memberId}`;
          const [row] = await tx`update group_members set name = ${body.name} where id = ${memberId}
                                 returning id, name, user_id, created_at`;
          await logActivity(tx, {
            groupId, memberId: actor.id, action: 'MEMBER_RENAMED',
            details: `${actor.name} renamed ${before.name} to ${body.name}`,
          });
          return toMember(row);
        });
        return c.json({ member });
      },
      DELETE: async (c) => {
        const memberId = pathUuid(c.req.param('member_id'), 'member_id');
        const name = await asCaller(c, ctx, async (tx) => {
          const groupId = await requireAccess(tx, 'member', memberId, 'creator', 'Only the group creator can remove members');
          const actor = await callerMember(tx, groupId);
          if (actor.id === memberId) throw badRequest('The group creator cannot be removed; delete the group instead');
          // The database refuses (SP400, with the reason) when the member paid or shares an
          // expense or settlement: balances must never change silently.
          const [gone] = await tx`delete from group_members where id = ${memberId} returning name`;
          await logActivity(tx, {
            groupId, memberId: actor.id, action: 'MEMBER_REMOVED',
            details: `${actor.name} removed ${gone.name}`,
          });
          return gone.name as string;
        });
        return c.json({ message: `${name} was removed from the group` });
      },
    },
  }, { before: requireUser(ctx) });
}
