// One exception type for every deliberate HTTP failure. Each service renders it in its own
// envelope (splitting: {error}, invoicing: {error:{message,status}}); anything else is a 500.
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const unauthorized = (message = 'Unauthorized') => new HttpError(401, message);
export const forbidden = (message = 'Forbidden') => new HttpError(403, message);
export const notFound = (message = 'Not found') => new HttpError(404, message);
export const methodNotAllowed = (message = 'Method not allowed') => new HttpError(405, message);

/** A short request id to correlate a 500's response with its log line. */
export function newRequestId(): string {
  return crypto.randomUUID();
}
