// Presence per topic, in Phoenix's shape: state `{key: {metas: [{phx_ref, ...meta}]}}` and
// diffs `{joins, leaves}`, sent to the channels of the topic that enabled presence. One meta per
// channel: tracking again replaces it.
import { randomBytes } from 'node:crypto';
import type { Channel } from './channel.ts';

interface Entry {
  key: string;
  meta: Record<string, unknown>;
}

type PresenceMap = Record<string, { metas: Record<string, unknown>[] }>;

export class Presence {
  private readonly byTopic = new Map<string, Map<Channel, Entry>>();

  constructor(private readonly subscribers: (topic: string) => Iterable<Channel>) {}

  state(topic: string): PresenceMap {
    const out: PresenceMap = {};
    for (const { key, meta } of this.byTopic.get(topic)?.values() ?? []) {
      (out[key] ??= { metas: [] }).metas.push(meta);
    }
    return out;
  }

  track(channel: Channel, payload: unknown): void {
    const entries = this.byTopic.get(channel.topic) ?? new Map<Channel, Entry>();
    this.byTopic.set(channel.topic, entries);
    const previous = entries.get(channel);
    const meta = {
      ...(payload && typeof payload === 'object' ? (payload as Record<string, unknown>) : {}),
      phx_ref: randomBytes(8).toString('base64url'),
      ...(previous ? { phx_ref_prev: previous.meta.phx_ref } : {}),
    };
    const entry = { key: channel.config.presenceKey, meta };
    entries.set(channel, entry);
    this.diff(channel.topic, [entry], previous ? [previous] : []);
  }

  untrack(channel: Channel): void {
    const entries = this.byTopic.get(channel.topic);
    const previous = entries?.get(channel);
    if (!entries || !previous) return;
    entries.delete(channel);
    if (entries.size === 0) this.byTopic.delete(channel.topic);
    this.diff(channel.topic, [], [previous]);
  }

  private diff(topic: string, joins: Entry[], leaves: Entry[]): void {
    const group = (xs: Entry[]) => {
      const out: PresenceMap = {};
      for (const { key, meta } of xs) (out[key] ??= { metas: [] }).metas.push(meta);
      return out;
    };
    const payload = { joins: group(joins), leaves: group(leaves) };
    for (const ch of this.subscribers(topic)) {
      if (ch.config.presenceEnabled) ch.send('presence_diff', payload, { joinRef: null });
    }
  }
}
