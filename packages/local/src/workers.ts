// The pg_net and pg_cron stand-ins: pg_net's background worker drains net.http_request_queue
// into net._http_response after the enqueuing transaction commits; pg_cron's launcher runs the
// commands of cron.job on their schedules. Both poll, as the originals do, and pg_net is also
// woken by NOTIFY so local deliveries are immediate.
import type { Sql } from 'postgres';
import { cronMatches } from './cron-schedule.ts';
import { SendTimeoutError, sendHttp } from './http-send.ts';

export interface Workers {
  stop(): Promise<void>;
  /** Drains the request queue once (tests call it to avoid waiting for the poll). */
  drainHttpQueue(): Promise<number>;
  /** Runs every due cron job for `at` once. */
  runDueCronJobs(at?: Date): Promise<number>;
}

const HTTP_BATCH = 20;

interface QueuedRequest {
  id: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body: Buffer | null;
  timeout_milliseconds: number;
}

async function sendQueuedRequest(sql: Sql, row: QueuedRequest): Promise<void> {
  try {
    const response = await sendHttp({ method: row.method, url: row.url, headers: row.headers, body: row.body, timeoutMs: row.timeout_milliseconds });
    await sql`insert into net._http_response (id, status_code, content_type, headers, content, timed_out, error_msg)
              values (${row.id}, ${response.status}, ${response.contentType}, ${sql.json(response.headers)},
                      ${response.body}, false, null)`;
  } catch (err) {
    await sql`insert into net._http_response (id, status_code, timed_out, error_msg)
              values (${row.id}, null, ${err instanceof SendTimeoutError}, ${(err as Error).message || String(err)})`;
  }
}

export function startWorkers(opts: { sql: Sql; log: (line: string) => void; pollMs?: number }): Workers {
  const { sql, log } = opts;
  let stopped = false;

  /** Sends one batch; returns how many requests it took from the queue. */
  async function drainBatch(): Promise<number> {
    const rows = await sql<QueuedRequest[]>`
      delete from net.http_request_queue
      where id in (select id from net.http_request_queue order by id limit ${HTTP_BATCH} for update skip locked)
      returning id, method, url, headers, body, timeout_milliseconds`;
    await Promise.all(rows.map((row) => sendQueuedRequest(sql, row)));
    return rows.length;
  }

  // Drains run one after another (NOTIFY, the poll and explicit calls all queue up here), so a
  // drain that resolves has seen every request committed before it was asked for.
  let draining: Promise<unknown> = Promise.resolve();
  function drainHttpQueue(): Promise<number> {
    const run = draining.then(async () => {
      let total = 0;
      for (let n = HTTP_BATCH; n === HTTP_BATCH && !stopped; total += n) n = await drainBatch();
      return total;
    });
    draining = run.catch((err) => log(`[pg_net] ${(err as Error).message}`));
    return run;
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

  const drainSoon = () => {
    drainHttpQueue().catch(() => {}); // logged by drainHttpQueue
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
