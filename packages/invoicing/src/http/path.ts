// The app is reachable as /functions/v1/invoicing/v1/… (hosted: pathname /invoicing/v1/…), and
// locally also as /v1/… and /api/v1/…. Routing sees only the part from /v1 on.
const FUNCTIONS_PREFIX = /^\/functions\/v1(?=\/)/;
const API_PATH = /^.*?(\/v1(?:\/.*)?)$/;

export function apiPath(pathname: string): string {
  const rest = pathname.replace(FUNCTIONS_PREFIX, '');
  const m = API_PATH.exec(rest);
  // trailing slashes are not a different resource
  return m ? m[1].replace(/(.)\/+$/, '$1') : rest;
}
