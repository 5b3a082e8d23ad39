// The reports of GET /v1/reports/:name (see reports.ts for each one's shape and formulas).
export { reports, type Report } from './reports.ts';
export { parseReportRequest } from './handle-report.ts';
export { reportRoutes } from './report-routes.ts';
