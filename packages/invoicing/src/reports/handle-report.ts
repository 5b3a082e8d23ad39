// GET /v1/reports/:name → the report's data. Validation happens before any SQL: an unknown report
// is a 404, a missing or malformed parameter a 400 that names it.
import { HttpError } from '../../../edge/mod.ts';
import { reports } from './reports.ts';

/** Query string → plain object (the last value of a repeated parameter wins). */
function paramsObject(searchParams: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of searchParams) out[k] = v;
  return out;
}

/** Validates `name` and its parameters; throws HttpError 404/400. */
export function parseReportRequest(name: string, searchParams: URLSearchParams) {
  const report = Object.hasOwn(reports, name) ? reports[name] : undefined;
  if (!report) {
    throw new HttpError(404, `Unknown report '${name}'; available: ${Object.keys(reports).join(', ')}`);
  }
  const parsed = report.params.safeParse(paramsObject(searchParams));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const param = String(issue.path[0] ?? 'query');
    const given = searchParams.get(param);
    const problem = given === null && issue.code === 'invalid_type' ? 'is required' : issue.message;
    throw new HttpError(400, `Query parameter '${param}' ${problem}${param === 'from' || param === 'to' ? ' (YYYY-MM-DD)' : ''}`);
  }
  return { report, params: parsed.data };
}
