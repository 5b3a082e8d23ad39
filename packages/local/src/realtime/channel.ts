// One joined channel of one socket: its topic, join_ref, the claims it runs as, its
// postgres_changes bindings and broadcast/presence settings. Everything the server sends to the
// channel goes through here so join_ref and topic are always right.
import type { Binding } from './bindings.ts';
import { encodeUserBroadcast, type Message } from './protocol.ts';
import type { Change, Row } from './replication.ts';
import { toJsonRecord } from './values.ts';
import type { Claims } from './visibility.ts';

/** setTimeout's limit (~24.8 days); later expiries are not scheduled (the anon key's is 2032). */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface ChannelConfig {
  broadcastSelf: boolean;
  broadcastAck: boolean;
  presenceEnabled: boolean;
  presenceKey: string;
}

export class Channel {
  /** postgres_changes are delivered only once the bindings passed their checks. */
  changesLive = false;
  private expiryTimer: NodeJS.Timeout | undefined;

  constructor(
    readonly topic: string,
    readonly joinRef: string | null,
    public token: string,
    public claims: Claims,
    readonly bindings: Binding[],
    readonly config: ChannelConfig,
    private readonly sendFrame: (m: Message | Buffer) => void,
    /** vsn 2.0.0 clients get user broadcasts as binary frames, like from Supabase. */
    private readonly binaryBroadcast: boolean,
  ) {}

  /** The topic without its `realtime:` prefix, as system messages name it. */
  get name(): string {
    return this.topic.replace(/^realtime:/, '');
  }

  send(event: string, payload: unknown, opts: { ref?: string | null; joinRef?: string | null } = {}): void {
    this.sendFrame({
      join_ref: opts.joinRef === undefined ? this.joinRef : opts.joinRef,
      ref: opts.ref ?? null,
      topic: this.topic,
      event,
      payload,
    });
  }

  broadcast(event: string, payload: unknown): void {
    if (this.binaryBroadcast) {
      try {
        return this.sendFrame(encodeUserBroadcast(this.topic, event, payload));
      } catch {
        // topic or event too long for the binary header: the text frame works for any length
      }
    }
    this.send('broadcast', { type: 'broadcast', event, payload }, { joinRef: null });
  }

  system(extension: string, status: 'ok' | 'error', message: string): void {
    this.send('system', { extension, status, message, channel: this.name });
  }

  /** Server-side close: the client marks the channel CLOSED (ref = join_ref passes its check). */
  close(): void {
    this.clearExpiry();
    this.send('phx_close', {}, { ref: this.joinRef });
  }

  /** Calls `onExpire` when the token's `exp` passes, as Realtime ends channels with the token. */
  scheduleExpiry(onExpire: () => void): void {
    this.clearExpiry();
    const exp = this.claims.exp;
    if (typeof exp !== 'number') return;
    const ms = exp * 1000 - Date.now();
    if (ms > MAX_TIMER_MS) return;
    this.expiryTimer = setTimeout(onExpire, Math.max(ms, 0));
    this.expiryTimer.unref();
  }

  clearExpiry(): void {
    if (this.expiryTimer) clearTimeout(this.expiryTimer);
    this.expiryTimer = undefined;
  }

  /**
   * Sends one change to this channel for the bindings it matched, one message per distinct
   * `select` list (bindings without one share a message).
   */
  sendChange(change: Change, matched: Binding[]): void {
    const groups = new Map<string, Binding[]>();
    for (const b of matched) {
      const key = b.select ? JSON.stringify(b.select) : '';
      groups.set(key, [...(groups.get(key) ?? []), b]);
    }
    for (const group of groups.values()) {
      this.send('postgres_changes', changePayload(change, group.map((b) => b.id), group[0].select), {
        joinRef: null,
      });
    }
  }
}

function restrict(row: Row, columns: string[] | undefined): Row {
  if (!columns) return row;
  return Object.fromEntries(columns.filter((c) => c in row).map((c) => [c, row[c]]));
}

/** The payload realtime-js turns into `{schema, table, commit_timestamp, eventType, new, old}`. */
export function changePayload(change: Change, ids: number[], select?: string[]) {
  const { table } = change;
  const data: Record<string, unknown> = {
    schema: table.schema,
    table: table.table,
    commit_timestamp: change.commitTimestamp,
    type: change.type,
    columns: (select ? table.columns.filter((c) => select.includes(c.name)) : table.columns).map((c) => ({
      name: c.name,
      type: c.type,
    })),
  };
  if (change.record) data.record = toJsonRecord(restrict(change.record, select), table.typeOf);
  if (change.type !== 'INSERT' && change.oldRecord) {
    // On RLS tables the old row was never checked against policies: Realtime reveals only its key.
    const old = table.rls && table.primaryKey.length
      ? restrict(change.oldRecord, table.primaryKey.map((k) => k.name))
      : restrict(change.oldRecord, select);
    data.old_record = toJsonRecord(old, table.typeOf);
  }
  data.errors = null;
  return { ids, data };
}
