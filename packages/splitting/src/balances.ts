// Per-member balances: rules 1–3 of the spec, plus recorded settlements (the payer's balance
// rises, the receiver's falls). Two producers: `computeBalanceCents` (pure, the reference the
// tests use) and app.balance_cents in SQL (what the API runs); both end in `toBalanceRows`.
import { apportion } from './apportion.ts';
import { centsToNumber } from './money.ts';

export interface MemberRef {
  id: string;
  name: string;
}

export interface ExpenseCents {
  paidBy: string;
  cents: number;
  /** Empty: every member of the group shares it. */
  splitAmong: readonly string[];
}

export interface SettlementCents {
  from: string;
  to: string;
  cents: number;
}

export interface MemberCents {
  memberId: string;
  memberName: string;
  paidCents: number;
  owedCents: number;
}

/** The spec's balance object: numbers with at most 2 decimals. */
export interface BalanceRow {
  memberId: string;
  memberName: string;
  totalPaid: number;
  totalOwed: number;
  balance: number;
}

export function computeBalanceCents(
  members: readonly MemberRef[],
  expenses: readonly ExpenseCents[],
  settlements: readonly SettlementCents[] = [],
): MemberCents[] {
  const rows = new Map<string, MemberCents>(
    members.map((m) => [m.id.toLowerCase(), { memberId: m.id, memberName: m.name, paidCents: 0, owedCents: 0 }]),
  );
  const everyone = members.map((m) => m.id);
  const row = (id: string) => {
    const found = rows.get(id.toLowerCase());
    if (!found) throw new Error(`unknown member ${id}`);
    return found;
  };
  for (const e of expenses) {
    row(e.paidBy).paidCents += e.cents;
    const sharers = e.splitAmong.length > 0 ? e.splitAmong : everyone;
    for (const [id, share] of apportion(e.cents, sharers)) row(id).owedCents += share;
  }
  // A settlement is money paid by `from` on behalf of `to`'s credit: it moves both balances.
  for (const s of settlements) {
    row(s.from).paidCents += s.cents;
    row(s.to).owedCents += s.cents;
  }
  return [...rows.values()];
}

export function toBalanceRows(rows: readonly MemberCents[]): BalanceRow[] {
  return rows.map((r) => ({
    memberId: r.memberId,
    memberName: r.memberName,
    totalPaid: centsToNumber(r.paidCents),
    totalOwed: centsToNumber(r.owedCents),
    balance: centsToNumber(r.paidCents - r.owedCents),
  }));
}
