// api-settlements: balances and suggested transfers (greedy by default, ?strategy=minimal for
// the provably smallest number), and recording a settlement that was paid.
import { z } from 'zod';
import { badRequest, type EdgeContext, type TransactionSql } from '../../../edge/mod.ts';
import { memberOfGroup, requireAccess } from '../access.ts';
import { logActivity } from '../activity.ts';
import { toBalanceRows, type BalanceRow, type MemberCents } from '../balances.ts';
import { asCaller, requireUser } from '../caller.ts';
import { createFunctionApp } from '../function-app.ts';
import { centsToNumber, centsToNumeric } from '../money.ts';
import { toSettlement } from '../rows.ts';
import { settle, type Strategy } from '../settlement.ts';
import { amountCents, parse, queryUuid, readJsonBody, uuid } from '../validation.ts';

const recordBody = z.object({
  group_id: uuid,
  from_member_id: uuid,
  to_member_id: uuid,
  amount: amountCents,
  member_id: uuid,
});

const strategyParam = z.enum(['greedy', 'minimal'], { message: 'must be greedy or minimal' });

/** Rows of app.balance_cents / app.group_balances (bigints arrive as strings) → cents. */
export function memberCents(rows: readonly Record<string, unknown>[]): MemberCents[] {
  return rows.map((r) => ({
    memberId: r.member_id as string,
    memberName: r.member_name as string,
    paidCents: Number(r.paid_cents),
    owedCents: Number(r.owed_cents),
  }));
}

export function settlementView(members: readonly MemberCents[], strategy: Strategy) {
  const balances: BalanceRow[] = toBalanceRows(members);
  const names = new Map(members.map((m) => [m.memberId, m.memberName]));
  const settlements = settle(
    members.map((m) => ({ memberId: m.memberId, memberName: m.memberName, balanceCents: m.paidCents - m.owedCents })),
    strategy,
  ).map((t) => ({ from: t.from, from_name: names.get(t.from)!, to: t.to, to_name: names.get(t.to)!, amount: centsToNumber(t.cents) }));
  return { balances, settlements };
}

export async function groupBalanceCents(tx: TransactionSql, groupId: string): Promise<MemberCents[]> {
  return memberCents(await tx`select member_id, member_name, paid_cents, owed_cents from app.group_balances(${groupId})`);
}

export function createSettlementsApp(ctx: EdgeContext) {
  return createFunctionApp('api-settlements', {
    '/': {
      GET: async (c) => {
        const url = new URL(c.req.url);
        const groupId = queryUuid(url, 'group_id');
        const strategy = parse(z.object({ strategy: strategyParam.default('greedy') }), {
          strategy: url.searchParams.get('strategy') ?? undefined,
        }).strategy;
        const members = await asCaller(c, ctx, async (tx) => {
          await requireAccess(tx, 'group', groupId);
          return groupBalanceCents(tx, groupId);
        });
        return c.json(settlementView(members, strategy));
      },
      POST: async (c) => {
        const body = parse(recordBody, await readJsonBody(c.req.raw));
        if (body.from_member_id === body.to_member_id) throw badRequest('to_member_id must differ from from_member_id');
        const settlement = await asCaller(c, ctx, async (tx) => {
          await requireAccess(tx, 'group', body.group_id);
          const actor = await memberOfGroup(tx, body.group_id, body.member_id, 'member_id');
          const from = await memberOfGroup(tx, body.group_id, body.from_member_id, 'from_member_id');
          const to = await memberOfGroup(tx, body.group_id, body.to_member_id, 'to_member_id');
          const [row] = await tx`
            insert into settlements (group_id, from_member_id, to_member_id, amount, settled_by)
            values (${body.group_id}, ${from.id}, ${to.id}, ${centsToNumeric(body.amount)}::numeric, ${actor.id})
            returning id, group_id, from_member_id, to_member_id, amount::text as amount, settled_by, created_at`;
          await logActivity(tx, {
            groupId: body.group_id, memberId: actor.id, action: 'SETTLEMENT_RECORDED',
            details: `${actor.name} recorded that ${from.name} paid ${to.name} ${centsToNumeric(body.amount)}`,
          });
          return toSettlement(row);
        });
        return c.json({ settlement }, 201);
      },
    },
  }, { before: requireUser(ctx) });
}
