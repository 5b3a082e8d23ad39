// The pg_net and pg_cron stand-ins against a real database: requests leave only after commit,
// with exactly the bytes pg_net sends, responses land in net._http_response; cron jobs run their
// SQL on schedule and are recorded.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkers, type Workers } from '../../packages/local/src/workers.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';

let db: TestDatabase;
let workers: Workers;
let receiver: Server;
let receiverUrl: string;
const received: { method: string; url: string; headers: Record<string, unknown>; body: string }[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      received.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      res.writeHead(req.url?.startsWith('/fail') ? 503 : 200, { 'content-type': 'text/plain' }).end('thanks');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  // poll far apart: the test drains explicitly, so what it sees is deterministic
  workers = startWorkers({ sql: db.sql, log: () => {}, pollMs: 60_000 });
});
afterAll(async () => {
  await workers.stop();
  receiver.close();
  await db.drop();
});

describe('pg_net stand-in', () => {
  it('sends a committed net.http_post with the jsonb text as body and records the response', async () => {
    received.length = 0;
    const [{ id }] = await db.sql`
      select net.http_post(${receiverUrl + '/hook'}, '{"b": 2, "a": "ü"}'::jsonb, '{"x": "1"}'::jsonb,
                           '{"Content-Type": "application/json", "X-Sig": "abc"}'::jsonb) as id`;
    // a NOTIFY-woken drain may already be sending it; an explicit drain waits for that one
    await workers.drainHttpQueue();
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: 'POST', url: '/hook?x=1', body: '{"a": "ü", "b": 2}' });
    expect(received[0].headers['x-sig']).toBe('abc');
    const [row] = await db.sql`select status_code, content, timed_out, error_msg from net._http_response where id = ${id}`;
    expect(row).toEqual({ status_code: 200, content: 'thanks', timed_out: false, error_msg: null });
  });

  it('sends nothing for a rolled-back transaction', async () => {
    await db.sql
      .begin(async (tx) => {
        await tx`select net.http_post(${receiverUrl + '/never'}, '{}'::jsonb)`;
        throw new Error('roll back');
      })
      .catch(() => {});
    received.length = 0;
    await workers.drainHttpQueue();
    expect(received).toHaveLength(0);
    const [{ queued }] = await db.sql`select count(*)::int as queued from net.http_request_queue`;
    expect(queued).toBe(0);
  });

  it('records a failing receiver and an unreachable one', async () => {
    const [{ failing }] = await db.sql`select net.http_post(${receiverUrl + '/fail'}, '{}'::jsonb) as failing`;
    const [{ unreachable }] = await db.sql`select net.http_get('http://127.0.0.1:1/nothing') as unreachable`;
    await workers.drainHttpQueue();
    const rows = await db.sql`select id, status_code, error_msg from net._http_response where id in (${failing}, ${unreachable}) order by id`;
    expect(rows[0]).toMatchObject({ status_code: 503, error_msg: null });
    expect(rows[1].status_code).toBeNull();
    expect(rows[1].error_msg).toBeTruthy();
  });
});

describe('pg_cron stand-in', () => {
  it('runs due jobs and records each run, success or failure', async () => {
    await db.sql`create table cron_probe (ran_at timestamptz)`;
    await db.sql`select cron.schedule('probe', '*/5 * * * *', 'insert into cron_probe values (now())')`;
    await db.sql`select cron.schedule('broken', '*/5 * * * *', 'select 1/0')`;
    expect(await workers.runDueCronJobs(new Date('2026-11-21T10:03:00Z'))).toBe(0);
    expect(await workers.runDueCronJobs(new Date('2026-11-21T10:05:00Z'))).toBe(2);
    const [{ count }] = await db.sql`select count(*)::int as count from cron_probe`;
    expect(count).toBe(1);
    const runs = await db.sql`select j.jobname, d.status from cron.job_run_details d join cron.job j using (jobid) order by j.jobname`;
    expect(runs.map((r) => [r.jobname, r.status])).toEqual([['broken', 'failed'], ['probe', 'succeeded']]);
  });

  it('re-scheduling a job by name replaces it; unschedule removes it', async () => {
    await db.sql`select cron.schedule('probe', '0 0 * * *', 'select 1')`;
    const jobs = await db.sql`select schedule from cron.job where jobname = 'probe'`;
    expect(jobs.map((j) => j.schedule)).toEqual(['0 0 * * *']);
    const [{ gone }] = await db.sql`select cron.unschedule('probe') as gone`;
    expect(gone).toBe(true);
  });
});
