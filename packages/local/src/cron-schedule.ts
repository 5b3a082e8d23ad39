// Five-field cron expressions as pg_cron reads them (minute hour day-of-month month
// day-of-week; `*`, lists, ranges, steps), evaluated in UTC like pg_cron's default.
const FIELDS: Array<[min: number, max: number]> = [[0, 59], [0, 23], [1, 31], [1, 12], [0, 7]];

function fieldMatches(expr: string, value: number, [min, max]: [number, number]): boolean {
  return expr.split(',').some((part) => {
    const [range, stepText] = part.split('/');
    const step = stepText ? Number(stepText) : 1;
    let lo: number;
    let hi: number;
    if (range === '*') [lo, hi] = [min, max];
    else if (range.includes('-')) [lo, hi] = range.split('-').map(Number) as [number, number];
    else [lo, hi] = [Number(range), stepText ? max : Number(range)];
    if (!Number.isInteger(lo) || !Number.isInteger(hi) || !Number.isInteger(step) || step < 1) {
      throw new Error(`invalid cron field "${expr}"`);
    }
    return value >= lo && value <= hi && (value - lo) % step === 0;
  });
}

export function cronMatches(schedule: string, at: Date): boolean {
  const fields = schedule.trim().split(/\s+/);
  if (fields.length !== 5) throw new Error(`cron schedule needs 5 fields: "${schedule}"`);
  const [minute, hour, dom, month, dow] = fields;
  const day = at.getUTCDay();
  return (
    fieldMatches(minute, at.getUTCMinutes(), FIELDS[0]) &&
    fieldMatches(hour, at.getUTCHours(), FIELDS[1]) &&
    fieldMatches(dom, at.getUTCDate(), FIELDS[2]) &&
    fieldMatches(month, at.getUTCMonth() + 1, FIELDS[3]) &&
    (fieldMatches(dow, day, FIELDS[4]) || (day === 0 && fieldMatches(dow, 7, FIELDS[4])))
  );
}
