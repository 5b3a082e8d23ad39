// Settlement suggestions from balances in integer cents (rule 4 of the spec).
//   greedy  — the spec's algorithm: debtors and creditors each sorted largest first (ties by
//             member id, so the result is deterministic), matched pairwise.
//   minimal — a provably minimal number of transfers: n non-zero balances that split into at
//             most g disjoint zero-sum groups need exactly n − g transfers, so find the largest
//             such partition by exact search (2^n subsets, n ≤ 20) and settle each group greedily.
//             Greedy can be beaten: +40 +30 +30 −60 −40 takes 4 greedy transfers, 3 minimal.

export interface MemberBalance {
  memberId: string;
  memberName: string;
  balanceCents: number;
}

export interface Transfer {
  from: string;
  to: string;
  cents: number;
}

export type Strategy = 'greedy' | 'minimal';

/** Above this many non-zero balances the exact search (2^n) is too slow; greedy is used. */
export const MINIMAL_SEARCH_LIMIT = 20;

const byAmountThenId = (a: MemberBalance, b: MemberBalance) =>
  Math.abs(b.balanceCents) - Math.abs(a.balanceCents) || (a.memberId < b.memberId ? -1 : a.memberId > b.memberId ? 1 : 0);

export function greedySettlements(balances: readonly MemberBalance[]): Transfer[] {
  const debtors = balances.filter((b) => b.balanceCents < 0).sort(byAmountThenId).map((b) => ({ id: b.memberId, left: -b.balanceCents }));
  const creditors = balances.filter((b) => b.balanceCents > 0).sort(byAmountThenId).map((b) => ({ id: b.memberId, left: b.balanceCents }));
  const transfers: Transfer[] = [];
  let d = 0;
  let c = 0;
  while (d < debtors.length && c < creditors.length) {
    const debtor = debtors[d];
    const creditor = creditors[c];
    const cents = Math.min(debtor.left, creditor.left);
    transfers.push({ from: debtor.id, to: creditor.id, cents });
    debtor.left -= cents;
    creditor.left -= cents;
    if (debtor.left === 0) d++;
    if (creditor.left === 0) c++;
  }
  return transfers;
}

export function minimalSettlements(balances: readonly MemberBalance[]): Transfer[] {
  const nonZero = balances.filter((b) => b.balanceCents !== 0);
  if (nonZero.length > MINIMAL_SEARCH_LIMIT) return greedySettlements(balances);
  return zeroSumGroups(nonZero).flatMap((group) => greedySettlements(group));
}

export function settle(balances: readonly MemberBalance[], strategy: Strategy = 'greedy'): Transfer[] {
  return strategy === 'minimal' ? minimalSettlements(balances) : greedySettlements(balances);
}

/**
 * The largest partition of the balances into zero-sum groups. groups[mask] is the most
 * zero-sum groups a chain of removals from `mask` passes through: taking members away one at
 * a time, every time the remaining set sums to zero a group closes. The best chain from the
 * full set therefore yields a maximum partition.
 */
function zeroSumGroups(items: readonly MemberBalance[]): MemberBalance[][] {
  const n = items.length;
  if (n === 0) return [];
  const size = 1 << n;
  const sums = new Float64Array(size);
  const groups = new Int8Array(size);
  for (let mask = 1; mask < size; mask++) {
    const low = 31 - Math.clz32(mask & -mask);
    sums[mask] = sums[mask & (mask - 1)] + items[low].balanceCents;
    let best = 0;
    for (let rest = mask; rest; rest &= rest - 1) {
      const g = groups[mask & ~(rest & -rest)];
      if (g > best) best = g;
    }
    groups[mask] = best + (sums[mask] === 0 ? 1 : 0);
  }
  // Walk the best chain down from the full set, cutting a group at every zero-sum set.
  const result: MemberBalance[][] = [];
  let mask = size - 1;
  let current: MemberBalance[] = [];
  while (mask) {
    const target = groups[mask] - (sums[mask] === 0 ? 1 : 0);
    let next = -1;
    for (let rest = mask; rest; rest &= rest - 1) {
      const bit = rest & -rest;
      if (groups[mask & ~bit] === target) {
        next = 31 - Math.clz32(bit);
        break;
      }
    }
    current.push(items[next]);
    mask &= ~(1 << next);
    if (sums[mask] === 0) {
      result.push(current);
      current = [];
    }
  }
  return result;
}
