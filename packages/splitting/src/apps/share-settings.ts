// api-share-settings: whether the password-protected public view is on; the creator turns it
// on (non-empty password, stored as a bcrypt hash by the database) or off (null / empty).
import { z } from 'zod';
import type { EdgeContext } from '../../../edge/mod.ts';
import { requireAccess } from '../access.ts';
import { asCaller, requireUser } from '../caller.ts';
import { createFunctionApp } from '../function-app.ts';
import { parse, queryUuid, readJsonBody } from '../validation.ts';

const putBody = z.object({
  // bcrypt reads at most 72 bytes; longer passwords would be silently truncated
  share_password: z.string({ message: 'must be a string or null' }).max(72, 'must be at most 72 characters').nullable(),
});

export function createShareSettingsApp(ctx: EdgeContext) {
  return createFunctionApp('api-share-settings', {
    '/': {
      GET: async (c) => {
        const groupId = queryUuid(new URL(c.req.url), 'group_id');
        const settings = await asCaller(c, ctx, async (tx) => {
          await requireAccess(tx, 'group', groupId);
          const [row] = await tx`select sharing_enabled, coalesce(created_by = auth.uid(), false) as is_creator
                                 from expense_groups where id = ${groupId}`;
          return row;
        });
        return c.json({ sharing_enabled: settings.sharing_enabled, is_creator: settings.is_creator });
      },
      PUT: async (c) => {
        const groupId = queryUuid(new URL(c.req.url), 'group_id');
        const body = parse(putBody, await readJsonBody(c.req.raw));
        const enabled = await asCaller(c, ctx, async (tx) => {
          await requireAccess(tx, 'group', groupId, 'creator', 'Only the group creator can change share settings');
          const [row] = await tx`update expense_groups set share_password = ${body.share_password}
                                 where id = ${groupId} returning sharing_enabled`;
          return row.sharing_enabled as boolean;
        });
        return c.json({
          message: enabled
            ? 'Sharing enabled: anyone with the group code and this password can view the group'
            : 'Sharing disabled',
          sharing_enabled: enabled,
        });
      },
    },
  }, { before: requireUser(ctx) });
}
