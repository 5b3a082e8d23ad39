// Phoenix channel frames as realtime-js speaks them. vsn 2.0.0 (the client default) sends text
// frames `[join_ref, ref, topic, event, payload]` and user broadcasts as binary frames; vsn 1.0.0
// sends JSON objects. Decoding normalises all three into one Message shape.

export type Vsn = '1.0.0' | '2.0.0';

export interface Message {
  join_ref: string | null;
  ref: string | null;
  topic: string;
  event: string;
  payload: any;
}

/** Binary frame kinds of realtime-js's serializer. */
const USER_BROADCAST_PUSH = 3; // client → server
const USER_BROADCAST = 4; // server → client
const BINARY_ENCODING = 0;
const JSON_ENCODING = 1;

export class ProtocolError extends Error {}

export function decodeFrame(data: Buffer, isBinary: boolean): Message {
  if (isBinary) return decodeUserBroadcastPush(data);
  let parsed: unknown;
  try {
    parsed = JSON.parse(data.toString('utf8'));
  } catch {
    throw new ProtocolError('frame is not JSON');
  }
  if (Array.isArray(parsed)) {
    const [join_ref, ref, topic, event, payload] = parsed;
    return check({ join_ref: join_ref ?? null, ref: ref ?? null, topic, event, payload });
  }
  if (parsed && typeof parsed === 'object') {
    const o = parsed as Record<string, unknown>;
    return check({
      join_ref: (o.join_ref as string) ?? null,
      ref: (o.ref as string) ?? null,
      topic: o.topic as string,
      event: o.event as string,
      payload: o.payload,
    });
  }
  throw new ProtocolError('frame is neither an array nor an object');
}

function check(m: Message): Message {
  if (typeof m.topic !== 'string' || typeof m.event !== 'string') {
    throw new ProtocolError('frame lacks topic or event');
  }
  if (m.payload === undefined || m.payload === null) m.payload = {};
  return m;
}

/**
 * Layout: kind, then the byte lengths of join_ref, ref, topic, user event and metadata, the
 * payload encoding, those five strings, and the payload (JSON text or raw bytes).
 */
function decodeUserBroadcastPush(buf: Buffer): Message {
  if (buf.length < 7 || buf[0] !== USER_BROADCAST_PUSH) throw new ProtocolError('unknown binary frame');
  const lengths = [buf[1], buf[2], buf[3], buf[4], buf[5]];
  const encoding = buf[6];
  let offset = 7;
  const [joinRef, ref, topic, event, meta] = lengths.map((len) => {
    const s = buf.toString('utf8', offset, offset + len);
    offset += len;
    return s;
  });
  const body = buf.subarray(offset);
  let payload: unknown;
  try {
    payload = encoding === JSON_ENCODING ? JSON.parse(body.toString('utf8')) : body;
  } catch {
    throw new ProtocolError('broadcast payload is not JSON');
  }
  const data: Record<string, unknown> = { type: 'broadcast', event, payload };
  if (meta) data.meta = JSON.parse(meta);
  return { join_ref: joinRef || null, ref: ref || null, topic, event: 'broadcast', payload: data };
}

export function encodeFrame(vsn: Vsn, m: Message): string {
  return vsn === '1.0.0'
    ? JSON.stringify({ join_ref: m.join_ref, ref: m.ref, topic: m.topic, event: m.event, payload: m.payload })
    : JSON.stringify([m.join_ref, m.ref, m.topic, m.event, m.payload]);
}

/** A user broadcast as the server sends it to vsn 2.0.0 clients (binary kind 4). */
export function encodeUserBroadcast(topic: string, event: string, payload: unknown): Buffer {
  const isBytes = Buffer.isBuffer(payload);
  const body = isBytes ? (payload as Buffer) : Buffer.from(JSON.stringify(payload ?? {}), 'utf8');
  const t = Buffer.from(topic, 'utf8');
  const e = Buffer.from(event, 'utf8');
  if (t.length > 255 || e.length > 255) throw new ProtocolError('topic or event longer than 255 bytes');
  const header = Buffer.from([USER_BROADCAST, t.length, e.length, 0, isBytes ? BINARY_ENCODING : JSON_ENCODING]);
  return Buffer.concat([header, t, e, body]);
}

export const reply = (m: Message, status: 'ok' | 'error', response: unknown = {}): Message => ({
  join_ref: m.join_ref,
  ref: m.ref,
  topic: m.topic,
  event: 'phx_reply',
  payload: { status, response },
});
