// Largest-remainder apportionment of an amount in cents among sharers. Every sharer gets
// floor(cents / k); the (cents mod k) leftover cents go one each to the first sharers in
// ascending member-id order. app.balance_cents in SQL applies the very same rule, so the
// TypeScript and SQL balances agree to the cent.

/** Member ids in the order leftover cents are handed out (Postgres uuid order = lowercase hex order). */
export function leftoverOrder(ids: readonly string[]): string[] {
  return [...ids].map((id) => id.toLowerCase()).sort();
}

/** Shares per member id; they always add up to exactly `cents`. */
export function apportion(cents: number, memberIds: readonly string[]): Map<string, number> {
  const shares = new Map<string, number>();
  const ordered = leftoverOrder(memberIds);
  const k = ordered.length;
  if (k === 0) return shares;
  const base = Math.floor(cents / k);
  const leftover = cents - base * k;
  ordered.forEach((id, index) => shares.set(id, base + (index < leftover ? 1 : 0)));
  return shares;
}
