import { describe, expect, it } from 'vitest';
import { cronMatches } from '../../packages/local/src/cron-schedule.ts';

const at = (iso: string) => new Date(iso);

describe('cron schedule', () => {
  it.each([
    ['* * * * *', '2026-11-21T10:17:00Z', true],
    ['5 0 * * *', '2026-11-21T00:05:00Z', true],
    ['5 0 * * *', '2026-11-21T00:06:00Z', false],
    ['*/15 * * * *', '2026-11-21T10:30:00Z', true],
    ['*/15 * * * *', '2026-11-21T10:31:00Z', false],
    ['0 9-17 * * 1-5', '2026-11-23T12:00:00Z', true], // Monday
    ['0 9-17 * * 1-5', '2026-11-22T12:00:00Z', false], // Sunday
    ['0 0 1,15 * *', '2026-11-15T00:00:00Z', true],
    ['0 0 * * 7', '2026-11-22T00:00:00Z', true], // 7 is Sunday too
  ])('%s at %s → %s', (schedule, when, expected) => {
    expect(cronMatches(schedule, at(when))).toBe(expected);
  });

  it('rejects malformed schedules', () => {
    expect(() => cronMatches('* * *', new Date())).toThrow(/5 fields/);
    expect(() => cronMatches('x * * * *', new Date())).toThrow(/invalid cron field/);
  });
});
