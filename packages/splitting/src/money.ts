// Money in integer cents. Amounts arrive as JSON numbers or as numeric strings from Postgres;
// both are parsed from their decimal text so no float arithmetic ever touches a balance.

/** Largest amount numeric(14,2) can hold. */
export const MAX_AMOUNT_CENTS = 99_999_999_999_999;

const DECIMAL = /^(\d+)(?:\.(\d{1,2}))?$/;

/** "12.5" | 12.5 → 1250; null when not a non-negative amount with at most 2 decimals. */
export function parseCents(value: string | number): number | null {
  const text = typeof value === 'number' ? numberText(value) : value.trim();
  if (text === null) return null;
  const match = DECIMAL.exec(text);
  if (!match) return null;
  const cents = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return Number.isSafeInteger(cents) ? cents : null;
}

/** Postgres numeric text (always ≤ 2 decimals here, possibly negative) → cents. */
export function centsFromNumeric(text: string): number {
  const negative = text.startsWith('-');
  const cents = parseCents(negative ? text.slice(1) : text);
  if (cents === null) throw new Error(`not a money amount: ${text}`);
  return negative ? -cents : cents;
}

/** cents → JSON number with at most 2 decimals (1234 → 12.34, exactly as printed). */
export function centsToNumber(cents: number): number {
  return cents / 100;
}

/** cents → the numeric text Postgres stores exactly ("12.34"). */
export function centsToNumeric(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

// A JSON number's shortest decimal text; exponent forms (1e-7, 1e21) are not money.
function numberText(value: number): string | null {
  if (!Number.isFinite(value) || value < 0) return null;
  const text = String(value);
  return /e/i.test(text) ? null : text;
}
