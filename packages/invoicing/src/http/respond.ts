// Responses whose `data` is JSON text made by Postgres: spliced in, never parsed and re-encoded.
import { corsHeaders } from '../../../edge/mod.ts';

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', ...corsHeaders };

export function dataResponse(dataJson: string, status = 200, meta?: unknown): Response {
  const body = meta === undefined ? `{"data":${dataJson}}` : `{"data":${dataJson},"meta":${JSON.stringify(meta)}}`;
  return new Response(body, { status, headers: JSON_HEADERS });
}

export function jsonResponse(value: unknown, status = 200): Response {
  return new Response(JSON.stringify(value), { status, headers: JSON_HEADERS });
}
