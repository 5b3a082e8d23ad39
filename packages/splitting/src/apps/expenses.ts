// api-expenses: list (newest first), create, update, delete — each change logged with the
// acting member.
import { z } from 'zod';
import { badRequest, type EdgeContext } from '../../../edge/mod.ts';
import { callerMember, memberOfGroup, requireAccess } from '../access.ts';
import { logActivity } from '../activity.ts';
import { asCaller, requireUser } from '../caller.ts';
import { createFunctionApp } from '../function-app.ts';
import { centsToNumeric } from '../money.ts';
import { EXPENSE_COLUMNS, toExpense } from '../rows.ts';
import { amountCents, category, nonEmptyText, parse, pathUuid, queryUuid, readJsonBody, timestamp, uuid } from '../validation.ts';

const splitAmong = z.array(uuid, { message: 'must be an array of member ids' }).max(1000);

const createBody = z.object({
  group_id: uuid,
  paid_by: uuid,
  amount: amountCents,
  description: nonEmptyText(500),
  split_among: splitAmong.optional(),
  category: category.nullable().optional(),
  created_at: timestamp.optional(),
});

const updateBody = z.object({
  member_id: uuid,
  amount: amountCents.optional(),
  description: nonEmptyText(500).optional(),
  paid_by: uuid.optional(),
  split_among: splitAmong.optional(),
  category: category.nullable().optional(),
  created_at: timestamp.optional(),
});

export function createExpensesApp(ctx: EdgeContext) {
  return createFunctionApp('api-expenses', {
    '/': {
      GET: async (c) => {
        const groupId = queryUuid(new URL(c.req.url), 'group_id');
        const rows = await asCaller(c, ctx, async (tx) => {
          await requireAccess(tx, 'group', groupId);
          return tx.unsafe(
            `select ${EXPENSE_COLUMNS} from expenses where group_id = $1 order by created_at desc, id desc`,
            [groupId],
          );
        });
        return c.json({ expenses: rows.map(toExpense) });
      },
      POST: async (c) => {
        const body = parse(createBody, await readJsonBody(c.req.raw));
        const expense = await asCaller(c, ctx, async (tx) => {
          await requireAccess(tx, 'group', body.group_id);
          const actor = await callerMember(tx, body.group_id);
          const [row] = await tx.unsafe(
            `insert into expenses (group_id, paid_by, amount, description, split_among, category, created_at)
             values ($1, $2, $3::numeric, $4, $5::uuid[], $6, coalesce($7::timestamptz, now()))
             returning ${EXPENSE_COLUMNS}`,
            [body.group_id, body.paid_by, centsToNumeric(body.amount), body.description,
             pgArray(body.split_among ?? []), body.category ?? null, body.created_at ?? null],
          );
          await logActivity(tx, {
            groupId: body.group_id,
            memberId: actor.id,
            action: 'EXPENSE_CREATED',
            details: `${actor.name} added "${body.description}" (${centsToNumeric(body.amount)})`,
          });
          return toExpense(row);
        });
        return c.json({ expense }, 201);
      },
    },
    '/:expense_id': {
      PUT: async (c) => {
        const expenseId = pathUuid(c.req.param('expense_id'), 'expense_id');
        const body = parse(updateBody, await readJsonBody(c.req.raw));
        const { member_id: _actor, ...changes } = body;
        if (Object.values(changes).every((v) => v === undefined)) {
          throw badRequest('Nothing to update: send at least one of amount, description, paid_by, split_among, category, created_at');
        }
        const expense = await asCaller(c, ctx, async (tx) => {
          const groupId = await requireAccess(tx, 'expense', expenseId);
          const actor = await memberOfGroup(tx, groupId, body.member_id, 'member_id');
          const [before] = await tx`select amount::text as amount, description from expenses where id = ${expenseId}`;
          const [row] = await tx.unsafe(
            `update expenses set
               amount = coalesce($2::numeric, amount),
               description = coalesce($3, description),
               paid_by = coalesce($4::uuid, paid_by),
               split_among = coalesce($5::uuid[], split_among),
               category = case when $6::boolean then $7 else category end,
               created_at = coalesce($8::timestamptz, created_at)
             where id = $1
             returning ${EXPENSE_COLUMNS}`,
            [expenseId, body.amount === undefined ? null : centsToNumeric(body.amount), body.description ?? null,
             body.paid_by ?? null, body.split_among ? pgArray(body.split_among) : null,
             body.category !== undefined, body.category ?? null, body.created_at ?? null],
          );
          const after = toExpense(row);
          await logActivity(tx, {
            groupId,
            memberId: actor.id,
            action: 'EXPENSE_UPDATED',
            details: `${actor.name} updated "${after.description}"` +
              (before.amount !== row.amount ? ` (${before.amount} → ${row.amount})` : ` (${row.amount})`) +
              (before.description !== after.description ? `, was "${before.description}"` : ''),
          });
          return after;
        });
        return c.json({ expense });
      },
      DELETE: async (c) => {
        const expenseId = pathUuid(c.req.param('expense_id'), 'expense_id');
        const memberId = queryUuid(new URL(c.req.url), 'member_id');
        await asCaller(c, ctx, async (tx) => {
          const groupId = await requireAccess(tx, 'expense', expenseId);
          const actor = await memberOfGroup(tx, groupId, memberId, 'member_id');
          const [gone] = await tx`delete from expenses where id = ${expenseId} returning description, amount::text as amount`;
          await logActivity(tx, {
            groupId,
            memberId: actor.id,
            action: 'EXPENSE_DELETED',
            details: `${actor.name} deleted "${gone.description}" (${gone.amount})`,
          });
        });
        return c.json({ message: 'Expense deleted' });
      },
    },
  }, { before: requireUser(ctx) });
}

/** A Postgres array literal of uuids (already validated, so no quoting is needed). */
function pgArray(ids: readonly string[]): string {
  return `{${ids.join(',')}}`;
}
