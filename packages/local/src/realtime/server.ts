// The local stand-in for Supabase Realtime: a Phoenix-protocol websocket server for realtime-js,
// with postgres_changes fed by logical replication of publication `supabase_realtime`, filtered
// per binding and checked against RLS per subscriber, plus broadcast and presence between the
// sockets of this process. The gateway routes /realtime/v1/websocket upgrades here.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import postgres from 'postgres';
import { WebSocketServer } from 'ws';
import type { LocalKeys } from '../keys.ts';
import { bindingMatches, type Binding } from './bindings.ts';
import type { Channel } from './channel.ts';
import { Connection, type Hub } from './connection.ts';
import { Presence } from './presence.ts';
import type { Vsn } from './protocol.ts';
import { startChangeFeed, type Change } from './replication.ts';
import { apiKeyJwt } from './tokens.ts';
import { isVisible } from './visibility.ts';

export const PUBLICATION = 'supabase_realtime';
/** realtime-js gives up on a join after 10 s; answer before that even if replication is stuck. */
const READY_WAIT_MS = 8_000;

export interface RealtimeServer {
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  close(): Promise<void>;
  ready(): Promise<void>;
}

function rejectUpgrade(socket: Duplex, status: number, message: string): void {
  const body = JSON.stringify({ message });
  socket.end(
    `HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : 'Bad Request'}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

export function createRealtimeServer(opts: {
  databaseUrl: string;
  keys: LocalKeys;
  verifyToken: (token: string) => Promise<Record<string, unknown>>;
  log?: (line: string) => void;
}): RealtimeServer {
  const log = opts.log ?? ((line: string) => console.error(line));
  const catalog = postgres(opts.databaseUrl, { max: 4, onnotice: () => {}, idle_timeout: 60 });
  const wss = new WebSocketServer({ noServer: true });
  const connections = new Set<Connection>();
  const topics = new Map<string, Set<Channel>>();
  const channels = new Set<Channel>();
  const presence = new Presence((topic) => topics.get(topic) ?? []);

  async function dispatch(change: Change): Promise<void> {
    const targets: { channel: Channel; matched: Binding[] }[] = [];
    for (const channel of channels) {
      if (!channel.changesLive) continue;
      const matched = channel.bindings.filter((b) => bindingMatches(b, change));
      if (matched.length) targets.push({ channel, matched });
    }
    if (!targets.length) return;
    // DELETEs are not checked (the row is gone), as on Supabase; others once per distinct claims.
    const check = change.type !== 'DELETE' && change.table.rls && change.record;
    const verdicts = new Map<string, Promise<boolean>>();
    const visible = await Promise.all(
      targets.map(({ channel }) => {
        if (!check) return true;
        const key = JSON.stringify(channel.claims);
        let verdict = verdicts.get(key);
        if (!verdict) {
          verdict = isVisible(catalog, change.table, change.record!, channel.claims, log);
          verdicts.set(key, verdict);
        }
        return verdict;
      }),
    );
    targets.forEach(({ channel, matched }, i) => {
      if (!visible[i] || !channels.has(channel)) return;
      try {
        channel.sendChange(change, matched);
      } catch (err) {
        log(`realtime: sending a change to ${channel.topic} failed: ${(err as Error).message}`);
      }
    });
  }

  const feed = startChangeFeed({ databaseUrl: opts.databaseUrl, publication: PUBLICATION, catalog, onChange: dispatch, log });
  feed.ready.catch((err) => log(`realtime: replication failed to start: ${err.message}`));

  const hub: Hub = {
    catalog,
    publication: PUBLICATION,
    verifyToken: opts.verifyToken,
    log,
    presence,
    changesReady: () =>
      Promise.race([
        feed.ready.then(
          () => true,
          () => false,
        ),
        new Promise<boolean>((resolve) => setTimeout(resolve, READY_WAIT_MS, false).unref()),
      ]),
    register(channel) {
      channels.add(channel);
      const set = topics.get(channel.topic) ?? new Set();
      set.add(channel);
      topics.set(channel.topic, set);
    },
    unregister(channel) {
      channels.delete(channel);
      const set = topics.get(channel.topic);
      set?.delete(channel);
      if (set?.size === 0) topics.delete(channel.topic);
    },
    subscribers: (topic) => topics.get(topic) ?? [],
  };

  let closing = false;

  return {
    handleUpgrade(req, socket, head) {
      try {
        socket.on('error', (err) => log(`realtime: upgrade socket error: ${err.message}`));
        if (closing) return rejectUpgrade(socket, 400, 'Realtime is shutting down');
        const url = new URL(req.url ?? '/', 'http://localhost');
        const connectJwt = apiKeyJwt(url.searchParams.get('apikey') ?? (req.headers.apikey as string | undefined) ?? null, opts.keys);
        if (!connectJwt) return rejectUpgrade(socket, 401, 'Invalid API key');
        const vsnParam = url.searchParams.get('vsn') ?? '1.0.0';
        if (vsnParam !== '1.0.0' && vsnParam !== '2.0.0') {
          return rejectUpgrade(socket, 400, `unsupported serializer version ${vsnParam}`);
        }
        const vsn: Vsn = vsnParam;
        wss.handleUpgrade(req, socket, head, (ws) => {
          const conn = new Connection(ws, vsn, connectJwt, hub);
          connections.add(conn);
          ws.on('close', () => connections.delete(conn));
        });
      } catch (err) {
        log(`realtime: upgrade failed: ${(err as Error).message}`);
        socket.destroy();
      }
    },

    ready: () => feed.ready,

    async close() {
      closing = true;
      for (const conn of connections) {
        try {
          conn.shutdown();
        } catch (err) {
          log(`realtime: closing a socket: ${(err as Error).message}`);
        }
      }
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      // Ending the replication connection drops the temporary slot, so the database can go.
      await feed.close();
      await catalog.end({ timeout: 1 });
    },
  };
}
