// node:http ↔ fetch: turns an IncomingMessage into a Request and writes a Response back.
// Used by the gateway and by the benchmark's direct server, so both pay the same adapter cost.
import type { IncomingMessage, ServerResponse } from 'node:http';

export class BodyTooLargeError extends Error {}

async function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) throw new BodyTooLargeError();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw new BodyTooLargeError();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export async function toRequest(req: IncomingMessage, opts: { maxBodyBytes: number; baseUrl: string }): Promise<Request> {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
  // The peer address, set here so a client cannot choose the IP its throttles are keyed on.
  headers.set('x-real-ip', req.socket.remoteAddress ?? 'unknown');
  const method = req.method ?? 'GET';
  const body = method === 'GET' || method === 'HEAD' ? undefined : await readBody(req, opts.maxBodyBytes);
  return new Request(new URL(req.url ?? '/', opts.baseUrl), {
    method,
    headers,
    body: body && body.length > 0 ? new Uint8Array(body) : undefined,
  });
}

export async function writeResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, key) => {
    if (key === 'set-cookie') return;
    headers[key] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers['set-cookie'] = cookies;
  if (!response.body) {
    res.writeHead(response.status, headers).end();
    return;
  }
  const body = Buffer.from(await response.arrayBuffer());
  headers['content-length'] = String(body.length);
  res.writeHead(response.status, headers).end(body);
}

/** A node:http request listener that serves a fetch handler. */
export function fetchListener(
  handler: (request: Request) => Response | Promise<Response>,
  opts: { maxBodyBytes?: number; baseUrl: string; onTooLarge?: () => Response },
) {
  const maxBodyBytes = opts.maxBodyBytes ?? 1024 * 1024;
  return async (req: IncomingMessage, res: ServerResponse) => {
    let response: Response;
    try {
      response = await handler(await toRequest(req, { maxBodyBytes, baseUrl: opts.baseUrl }));
    } catch (err) {
      if (!(err instanceof BodyTooLargeError)) throw err;
      response = opts.onTooLarge?.() ?? new Response('Payload Too Large', { status: 413 });
      res.setHeader('connection', 'close');
    }
    await writeResponse(res, response);
  };
}
