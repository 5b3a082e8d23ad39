// Turns the text values of logical replication into the JSON values Supabase Realtime sends:
// Realtime builds records with to_jsonb, so numbers and booleans are JSON numbers and booleans,
// json columns are objects, timestamps are ISO 8601 with a `T`, and arrays are JSON arrays.
// realtime-js converts string values by column type as well, so either form reaches the
// callback the same; sending the to_jsonb form keeps the raw frames faithful too.

const NUMBER_TYPES = new Set(['int2', 'int4', 'int8', 'float4', 'float8', 'numeric', 'oid']);

/** "2026-01-01 12:00:00.123+00" → "2026-01-01T12:00:00.123+00:00" (to_jsonb's form). */
function isoTimestamp(text: string, withZone: boolean): string {
  const t = text.replace(' ', 'T');
  if (!withZone) return t;
  return t.replace(/([+-]\d\d)$/, '$1:00').replace(/([+-]\d\d)(\d\d)$/, '$1:$2');
}

export function toJsonValue(type: string, text: string | null | undefined): unknown {
  if (text == null) return text;
  if (type.startsWith('_')) {
    try {
      return parseArrayLiteral(text).map(function convert(v): unknown {
        return Array.isArray(v) ? v.map(convert) : toJsonValue(type.slice(1), v);
      });
    } catch {
      return text;
    }
  }
  if (NUMBER_TYPES.has(type)) {
    const n = Number(text);
    // NaN and ±Infinity have no JSON number; to_jsonb keeps them as strings too.
    return Number.isFinite(n) ? n : text;
  }
  switch (type) {
    case 'bool':
      return text === 't';
    case 'json':
    case 'jsonb':
      try {
        return JSON.parse(text);
      } catch {
        return text;
      }
    case 'timestamp':
      return isoTimestamp(text, false);
    case 'timestamptz':
      return isoTimestamp(text, true);
    default:
      return text;
  }
}

type ArrayValue = string | null | ArrayValue[];

/**
 * Parses Postgres array text output (`{1,2}`, `{"a b",NULL}`, `{{1,2},{3,4}}`) into nested
 * arrays of element text; NULL elements become null. Throws on malformed input.
 */
export function parseArrayLiteral(text: string): ArrayValue[] {
  // Arrays with custom bounds print as "[0:1]={…}".
  const start = text.indexOf('{');
  if (start < 0) throw new Error('not an array literal');
  let i = start;

  function parseList(): ArrayValue[] {
    const out: ArrayValue[] = [];
    i++; // skip {
    if (text[i] === '}') {
      i++;
      return out;
    }
    for (;;) {
      if (text[i] === '{') out.push(parseList());
      else if (text[i] === '"') {
        let s = '';
        i++;
        while (text[i] !== '"') {
          if (i >= text.length) throw new Error('unterminated quoted element');
          if (text[i] === '\\') i++;
          s += text[i++];
        }
        i++;
        out.push(s);
      } else {
        let j = i;
        while (j < text.length && text[j] !== ',' && text[j] !== '}') j++;
        const raw = text.slice(i, j);
        out.push(raw === 'NULL' ? null : raw);
        i = j;
      }
      if (text[i] === ',') i++;
      else if (text[i] === '}') {
        i++;
        return out;
      } else throw new Error('malformed array literal');
    }
  }
  return parseList();
}

/** A whole row of text values → JSON values, by column type. */
export function toJsonRecord(
  row: Record<string, string | null | undefined>,
  typeOf: (column: string) => string,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(row)) {
    // Unchanged TOASTed values arrive as undefined: omit them as Realtime does.
    if (value !== undefined) out[name] = toJsonValue(typeOf(name), value);
  }
  return out;
}
