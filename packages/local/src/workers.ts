// The pg_net and pg_cron stand-ins: pg_net's background worker drains net.http_request_queue
// into net._http_response after the enqueuing transaction commits; pg_cron's launcher runs the
// commands of cron.job on their schedules. Both poll, as the originals do, and pg_net is also
// woken by NOTIFY so local deliveries are immediate.
import type { Sql } from 'postgres';
import { cronMatches } from './cron-schedule.ts';

export interface Workers {
  stop(): Promise<void>;
  /** Drains the request queue once (tests call it to avoid waiting for the poll). */
  drainHttpQueue(): Promise<number>;
  /** Runs every due cron job for `at` once. */
  runDueCronJobs(at?: Date): Promise<number>;
}

const HTTP_BATCH = 20;

async function sendQueuedRequest(sql: Sql, row: {
  id: string; method: string; url: string; headers: Record<string, string>; body: Buffer | null; timeout_milliseconds: number;
}): Promise<void> {
  const started = Date.now();
  try {
    const response = await fetch(row.url, {
      method: row.method,
      headers: row.headers,
      body: row.body ? new Uint8Array(row.body) : undefined,
      signal: AbortSignal.timeout(row.timeout_milliseconds),
    });
    const content = await response.text();
    await sql`insert into net._http_response (id, status_code, content_type, headers, content, timed_out, error_msg)
              values (${row.id}, ${response.status}, ${response.headers.get('content-type')},
                      ${sql.json(Object.fromEntries(response.headers))}, ${content}, false, null)`;
  } catch (err) {
    const timedOut = (err as Error).name === 'TimeoutError' || Date.now() - started >= row.timeout_milliseconds;
    await sql`insert into net._http_response (id, status_code, timed_out, error_msg)
              values (${row.id}, null, ${timedOut}, ${(err as Error).message})`;
  }
}

export function startWorkers(opts: { sql: Sql; log: (line: string) => void; pollMs?: number }): Workers {
  const { sql, log } = opts;
  let stopped = false;

  async function drainHttpQueue(): Promise<number> {
    const rows = await sql<{ id: string; method: string; url: string; headers: Record<string, string>; body: Buffer | null; timeout_milliseconds: number }[]>`
      delete from net.http_request_queue
      where id in (select id from net.http_request_queue order by id limit ${HTTP_BATCH} for update skip locked)
      returning id, method, url, headers, body, timeout_milliseconds`;
    await Promise.all(rows.map((row) => sendQueuedRequest(sql, row)));
    return rows.length;
  }

  async function runDueCronJobs(at = new Date()): Promise<number> {
    const jobs = await sql<{ jobid: string; schedule: string; command: string }[]>`
      select jobid, schedule, command from cron.job where active`;
    let ran = 0;
    for (const job of jobs.filter((j) => cronMatches(j.schedule, at))) {
      const start = new Date();
      try {
        await sql.unsafe(job.command);
        await sql`insert into cron.job_run_details (jobid, command, status, return_message, start_time, end_time)
                  values (${job.jobid}, ${job.command}, 'succeeded', null, ${start}, now())`;
      } catch (err) {
        log(`[cron] job ${job.jobid} failed: ${(err as Error).message}`);
        await sql`insert into cron.job_run_details (jobid, command, status, return_message, start_time, end_time)
                  values (${job.jobid}, ${job.command}, 'failed', ${(err as Error).message}, ${start}, now())`;
      }
      ran++;
    }
    return ran;
  }

  let draining: Promise<unknown> = Promise.resolve();
  const drainSoon = () => {
    draining = draining.then(async () => {
      while (!stopped && (await drainHttpQueue()) === HTTP_BATCH);
    }).catch((err) => log(`[pg_net] ${(err as Error).message}`));
  };
  const listening = sql.listen('net_http_request', drainSoon).catch((err) => {
    log(`[pg_net] listen failed: ${(err as Error).message}`);
    return undefined;
  });
  const httpTimer = setInterval(drainSoon, opts.pollMs ?? 1000);

  // pg_cron fires at the top of each minute.
  let lastMinute = Math.floor(Date.now() / 60_000);
  const cronTimer = setInterval(() => {
    const minute = Math.floor(Date.now() / 60_000);
    if (minute === lastMinute) return;
    lastMinute = minute;
    runDueCronJobs(new Date(minute * 60_000)).catch((err) => log(`[cron] ${(err as Error).message}`));
  }, 1000);

  return {
    drainHttpQueue,
    runDueCronJobs,
    async stop() {
      stopped = true;
      clearInterval(httpTimer);
      clearInterval(cronTimer);
      (await listening)?.unlisten().catch(() => {});
      await draining;
    },
  };
}
