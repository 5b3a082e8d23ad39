// One outgoing HTTP request for the pg_net stand-in. node:http with a fresh connection per
// request, as pg_net's libcurl handles do: fetch's shared keep-alive pool can hand out a socket
// the receiver already closed, which turns a healthy receiver into a spurious "fetch failed".
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface SentResponse {
  status: number;
  contentType: string | null;
  headers: Record<string, string>;
  body: string;
}

export class SendTimeoutError extends Error {}

export function sendHttp(opts: {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: Buffer | null;
  timeoutMs: number;
}): Promise<SentResponse> {
  return new Promise((resolve, reject) => {
    const url = new URL(opts.url);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(url, { method: opts.method, headers: opts.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
        resolve({ status: res.statusCode ?? 0, contentType: res.headers['content-type'] ?? null, headers, body: Buffer.concat(chunks).toString('utf8') });
      });
      res.on('error', reject);
    });
    req.setTimeout(opts.timeoutMs, () => req.destroy(new SendTimeoutError(`Timeout of ${opts.timeoutMs} ms reached`)));
    req.on('error', reject);
    req.end(opts.body ?? undefined);
  });
}
