// One websocket: decodes frames, runs them one at a time (a join's async checks must finish
// before a following leave or access_token is looked at), and keeps the socket's channels.
import type { Sql } from 'postgres';
import type { WebSocket } from 'ws';
import { BindingError, checkBinding, parseBinding, type Binding } from './bindings.ts';
import { Channel } from './channel.ts';
import type { Presence } from './presence.ts';
import { decodeFrame, encodeFrame, reply, type Message, type Vsn } from './protocol.ts';
import { channelToken, InvalidJwtError, verifyChannelToken } from './tokens.ts';

/** What a connection needs from the server. */
export interface Hub {
  catalog: Sql;
  publication: string;
  verifyToken: (token: string) => Promise<Record<string, unknown>>;
  log: (line: string) => void;
  /** Resolves true once replication is live, false if it failed or takes too long. */
  changesReady(): Promise<boolean>;
  register(channel: Channel): void;
  unregister(channel: Channel): void;
  subscribers(topic: string): Iterable<Channel>;
  presence: Presence;
}

export class Connection {
  private readonly channels = new Map<string, Channel>();
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly ws: WebSocket,
    private readonly vsn: Vsn,
    /** The role JWT of the connect apikey: the default token of every channel. */
    private readonly connectJwt: string,
    private readonly hub: Hub,
  ) {
    ws.on('message', (data, isBinary) => this.receive(data as Buffer, isBinary));
    ws.on('close', () => this.dropAll());
    ws.on('error', (err) => hub.log(`realtime: socket error: ${err.message}`));
  }

  private receive(data: Buffer | Buffer[], isBinary: boolean): void {
    let msg: Message;
    try {
      msg = decodeFrame(Array.isArray(data) ? Buffer.concat(data) : data, isBinary);
    } catch (err) {
      this.hub.log(`realtime: ignored a frame: ${(err as Error).message}`);
      return;
    }
    this.queue = this.queue
      .then(() => this.handle(msg))
      .catch((err) => this.hub.log(`realtime: ${msg.event} on ${msg.topic} failed: ${(err as Error).stack ?? err}`));
  }

  private send(m: Message | Buffer): void {
    if (this.ws.readyState !== this.ws.OPEN) return;
    if (Buffer.isBuffer(m)) this.ws.send(m, { binary: true });
    else this.ws.send(encodeFrame(this.vsn, m));
  }

  private async handle(msg: Message): Promise<void> {
    if (msg.topic === 'phoenix' && msg.event === 'heartbeat') return this.send(reply(msg, 'ok'));
    if (msg.event === 'phx_join') return this.join(msg);

    const channel = this.channels.get(msg.topic);
    if (!channel) return this.send(reply(msg, 'error', { reason: 'unmatched topic' }));
    switch (msg.event) {
      case 'phx_leave':
        this.send(reply(msg, 'ok'));
        this.drop(channel);
        channel.close();
        return;
      case 'access_token':
        return this.refreshToken(channel, msg.payload?.access_token);
      case 'broadcast':
        return this.relayBroadcast(channel, msg);
      case 'presence':
        if (msg.payload?.event === 'untrack') this.hub.presence.untrack(channel);
        else this.hub.presence.track(channel, msg.payload?.payload);
        return this.send(reply(msg, 'ok'));
      default:
        return this.send(reply(msg, 'ok'));
    }
  }

  private async join(msg: Message): Promise<void> {
    // Phoenix semantics: joining a topic again replaces the earlier join.
    const previous = this.channels.get(msg.topic);
    if (previous) this.drop(previous);

    const payload = msg.payload ?? {};
    const token = channelToken(payload.access_token, this.connectJwt);
    let claims: Record<string, unknown>;
    try {
      claims = await verifyChannelToken(token, this.hub.verifyToken);
    } catch (err) {
      if (!(err instanceof InvalidJwtError)) throw err;
      return this.send(reply(msg, 'error', { reason: `InvalidJWTToken: ${err.message}` }));
    }

    const config = payload.config ?? {};
    const entries: Record<string, unknown>[] = Array.isArray(config.postgres_changes)
      ? config.postgres_changes.filter((e: unknown) => e && typeof e === 'object')
      : [];
    const bindings: Binding[] = [];
    const errors: string[] = [];
    const echoed = entries.map((entry) => {
      try {
        const b = parseBinding(entry);
        bindings.push(b);
        return { ...entry, id: b.id };
      } catch (err) {
        if (!(err instanceof BindingError)) throw err;
        errors.push(err.message);
        // Still echoed with an id, so realtime-js keeps the channel and shows the system error.
        return { ...entry, id: 1 };
      }
    });

    const channel = new Channel(
      msg.topic,
      msg.join_ref ?? msg.ref,
      token,
      claims,
      bindings,
      {
        broadcastSelf: config.broadcast?.self === true,
        broadcastAck: config.broadcast?.ack === true,
        presenceEnabled: config.presence?.enabled === true,
        presenceKey: typeof config.presence?.key === 'string' && config.presence.key !== ''
          ? config.presence.key
          : crypto.randomUUID(),
      },
      (m) => this.send(m),
      this.vsn === '2.0.0',
    );

    if (entries.length && !errors.length) {
      if (!(await this.hub.changesReady())) {
        errors.push('Realtime was unable to connect to the project database');
      } else {
        for (const b of bindings) {
          try {
            await checkBinding(this.hub.catalog, this.hub.publication, b);
          } catch (err) {
            if (!(err instanceof BindingError)) throw err;
            errors.push(err.message);
          }
        }
      }
    }
    // Live before the reply, so a client that saw SUBSCRIBED misses no later commit.
    channel.changesLive = entries.length > 0 && errors.length === 0;
    this.channels.set(msg.topic, channel);
    this.hub.register(channel);

    this.send(reply(msg, 'ok', { postgres_changes: echoed }));
    if (channel.config.presenceEnabled) {
      channel.send('presence_state', this.hub.presence.state(msg.topic), { joinRef: null });
    }
    if (entries.length) {
      if (errors.length) channel.system('postgres_changes', 'error', errors.join('; '));
      else channel.system('postgres_changes', 'ok', 'Subscribed to PostgreSQL');
    }
    channel.scheduleExpiry(() => this.expire(channel));
  }

  /** realtime-js pushes the session's token after each refresh; keep channels on it. */
  private async refreshToken(channel: Channel, accessToken: unknown): Promise<void> {
    const token = channelToken(accessToken, this.connectJwt);
    if (typeof accessToken !== 'string' || accessToken.startsWith('sb_') || token === channel.token) return;
    try {
      channel.claims = await verifyChannelToken(token, this.hub.verifyToken);
      channel.token = token;
      channel.scheduleExpiry(() => this.expire(channel));
    } catch (err) {
      if (!(err instanceof InvalidJwtError)) throw err;
      channel.system('system', 'error', `InvalidJWTToken: ${err.message}`);
      this.drop(channel);
      channel.close();
    }
  }

  private expire(channel: Channel): void {
    if (this.channels.get(channel.topic) !== channel) return;
    const exp = typeof channel.claims.exp === 'number' ? channel.claims.exp : Date.now() / 1000;
    channel.system('system', 'error', `Token has expired ${Math.max(0, Math.floor(Date.now() / 1000 - exp))} seconds ago`);
    this.drop(channel);
    channel.close();
  }

  private relayBroadcast(channel: Channel, msg: Message): void {
    const { event, payload } = msg.payload ?? {};
    if (typeof event === 'string') {
      for (const other of this.hub.subscribers(channel.topic)) {
        if (other !== channel || channel.config.broadcastSelf) other.broadcast(event, payload);
      }
    }
    // Binary pushes carry a ref too; realtime-js waits for it only when ack is on.
    if (msg.ref) this.send(reply(msg, 'ok'));
  }

  private drop(channel: Channel): void {
    channel.clearExpiry();
    this.hub.unregister(channel);
    this.hub.presence.untrack(channel);
    if (this.channels.get(channel.topic) === channel) this.channels.delete(channel.topic);
  }

  private dropAll(): void {
    for (const channel of [...this.channels.values()]) this.drop(channel);
  }

  /** Server shutdown: tell every channel, as Supabase does, then close the socket. */
  shutdown(): void {
    for (const channel of [...this.channels.values()]) {
      channel.system('system', 'error', 'Server is shutting down');
      this.drop(channel);
      channel.close();
    }
    this.ws.close(1001, 'server shutting down');
    // A client that never answers the close handshake must not hold the shutdown up.
    setTimeout(() => this.ws.terminate(), 1000).unref();
  }
}
