// Tells a 404 (no such group / expense / member) from a 403 (exists, but not yours) before RLS
// would silently hide the row. app.access_to is security definer for exactly this.
import { badRequest, forbidden, notFound, type TransactionSql } from '../../edge/mod.ts';

export type ResourceKind = 'group' | 'expense' | 'member';

const NOT_FOUND: Record<ResourceKind, string> = {
  group: 'Group not found',
  expense: 'Expense not found',
  member: 'Member not found',
};

/** The group the resource belongs to, when the caller is a member (or, if asked, its creator). */
export async function requireAccess(
  tx: TransactionSql,
  kind: ResourceKind,
  id: string,
  need: 'member' | 'creator' = 'member',
  creatorOnlyMessage = 'Only the group creator can do this',
): Promise<string> {
  const [row] = await tx`select group_id, access from app.access_to(${kind}, ${id})`;
  if (!row) throw notFound(NOT_FOUND[kind]);
  if (row.access === 'none') throw forbidden('You are not a member of this group');
  if (need === 'creator' && row.access !== 'creator') throw forbidden(creatorOnlyMessage);
  return row.group_id as string;
}

/** The caller's own membership row in the group. */
export async function callerMember(tx: TransactionSql, groupId: string): Promise<{ id: string; name: string }> {
  const [row] = await tx`select id, name from group_members where group_id = ${groupId} and user_id = auth.uid()`;
  if (!row) throw forbidden('You are not a member of this group');
  return { id: row.id, name: row.name };
}

/** A member named by the client (acting member, payer, …) who must belong to the group. */
export async function memberOfGroup(tx: TransactionSql, groupId: string, memberId: string, field: string): Promise<{ id: string; name: string }> {
  const [row] = await tx`select id, name from group_members where id = ${memberId} and group_id = ${groupId}`;
  if (!row) throw badRequest(`${field} is not a member of this group`);
  return { id: row.id, name: row.name };
}
