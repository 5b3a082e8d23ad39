// Appends to the group's activity log (append-only in the database).
import type { TransactionSql } from '../../edge/mod.ts';

export type ActivityAction =
  | 'GROUP_CREATED' | 'MEMBER_JOINED' | 'EXPENSE_ADDED' | 'EXPENSE_CREATED' | 'EXPENSE_UPDATED'
  | 'EXPENSE_DELETED' | 'SETTLEMENT_RECORDED' | 'MEMBER_RENAMED' | 'MEMBER_REMOVED';

export async function logActivity(
  tx: TransactionSql,
  entry: { groupId: string; memberId: string | null; action: ActivityAction; details: string },
): Promise<void> {
  await tx`insert into activity_log (group_id, member_id, action, details)
           values (${entry.groupId}, ${entry.memberId}, ${entry.action}, ${entry.details})`;
}
