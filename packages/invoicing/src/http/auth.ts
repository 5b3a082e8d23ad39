// The service checks the bearer token itself (verify_jwt = false) so that health, openapi.json
// and docs stay public; everything else needs a user's access token.
import { HttpError, bearerToken, type Claims, type EdgeContext } from '../../../edge/mod.ts';
import { isUuid } from '../query/coerce.ts';

export interface Caller {
  claims: Claims;
  userId: string;
  /** X-Company-Id, lower-cased, or '' for "the first company I belong to". */
  companyId: string;
}

const invalidToken = () => new HttpError(401, 'Invalid JWT', { 'www-authenticate': 'Bearer error="invalid_token"' });

export async function authenticate(ctx: EdgeContext, request: Request): Promise<Caller> {
  const header = request.headers.get('authorization');
  if (!header) throw new HttpError(401, 'Missing authorization header', { 'www-authenticate': 'Bearer' });
  const token = bearerToken(header);
  if (!token) throw invalidToken();
  let claims: Claims;
  try {
    claims = await ctx.verifyToken(token);
  } catch {
    throw invalidToken();
  }
  // The anon key is a valid JWT too, but it names no user: it cannot belong to a company.
  if (claims.role !== 'authenticated' || typeof claims.sub !== 'string' || !isUuid(claims.sub)) {
    throw new HttpError(401, 'A signed-in user access token is required');
  }
  const companyHeader = request.headers.get('x-company-id')?.trim() ?? '';
  if (companyHeader !== '' && !isUuid(companyHeader)) {
    throw new HttpError(400, "Header 'X-Company-Id' must be a company uuid");
  }
  return { claims, userId: claims.sub, companyId: companyHeader.toLowerCase() };
}
