// CORS for browser callers. The allowed headers are the ones supabase-js sends.
export const corsHeaders: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers':
    'authorization, x-client-info, apikey, content-type, x-company-id, x-supabase-api-version, prefer, accept-profile, content-profile, range',
  'Access-Control-Allow-Methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
  'Access-Control-Expose-Headers': 'content-range, x-request-id',
  'Access-Control-Max-Age': '86400',
};

export function preflightResponse(): Response {
  return new Response(null, { status: 204, headers: corsHeaders });
}
