// One error type for routes and one error handler for the app: bad input of
// any kind (body, query, params, multipart, JSON syntax, size) becomes a 4xx
// with a message; only a real fault is a 5xx, and its details stay in the log.

import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, type Problem } from '../domain/errors.ts';
import { localizeRefusal } from './i18n/refusals.ts';

export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly statusCode: number,
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, code?: string) => new HttpError(400, message, code);
export const unauthorized = (message = 'log in first: a session cookie or an Authorization: Bearer token') => new HttpError(401, message, 'unauthorized');
export const forbidden = (message: string) => new HttpError(403, message, 'forbidden');
export const notFound = (message: string) => new HttpError(404, message, 'not-found');
export const conflict = (message: string, code?: string) => new HttpError(409, message, code);
export const tooLarge = (message: string) => new HttpError(413, message, 'too-large');

/**
 * A multipart body the parser could not read (no boundary in the Content-Type,
 * a body cut short, a part cut mid-way): the client's fault, a 400 with the
 * code "bad-multipart"; null for any other error. The parser (busboy) throws
 * plain Errors, told apart by their messages.
 */
export function multipartRefusal(err: unknown): HttpError | null {
  if (!(err instanceof Error) || err instanceof HttpError || typeof (err as { statusCode?: unknown }).statusCode === 'number') return null;
  if (/^Multipart: Boundary not found$/.test(err.message))
    return badRequest('malformed multipart body: the Content-Type names no boundary (multipart/form-data; boundary=...)', 'bad-multipart');
  if (/unexpected end of multipart data/i.test(err.message))
    return badRequest('malformed multipart body: it ends before its closing boundary (cut short?)', 'bad-multipart');
  return null;
}

/** The status each kind of domain refusal answers with. */
const STATUS_OF: Record<Problem, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  'too-large': 413,
  unprocessable: 422,
  'too-many': 429,
};

/** A refusal's status, message and code (an HttpError or a DomainError), or null when the error is a fault. */
export function asRefusal(err: unknown): { statusCode: number; message: string; code?: string | undefined } | null {
  if (err instanceof HttpError) return { statusCode: err.statusCode, message: err.message, code: err.code };
  if (err instanceof DomainError) return { statusCode: STATUS_OF[err.problem], message: err.message, code: err.code };
  return null;
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  410: 'Gone',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export interface ErrorBody {
  statusCode: number;
  error: string;
  message: string;
  code?: string;
  /** A compile error's position in the file (1-based). */
  line?: number;
  column?: number;
}

function prismaStatus(err: { code?: unknown }): number | null {
  if (typeof err.code !== 'string' || !/^P\d{4}$/.test(err.code)) return null;
  if (err.code === 'P2025') return 404; // record not found
  if (err.code === 'P2002') return 409; // unique constraint
  return null;
}

/** The status, message and code an error answers with (and logs it). */
export function classifyError(error: FastifyError, request: FastifyRequest): ErrorBody {
  let status = 500;
  let message = 'internal error';
  let code: string | undefined;
  let details: Readonly<Record<string, string | number>> | undefined;
  if (error instanceof HttpError) {
    status = error.statusCode;
    message = error.message;
    code = error.code;
  } else if (error instanceof DomainError) {
    status = STATUS_OF[error.problem];
    message = error.message;
    code = error.code;
    details = error.details;
  } else if (multipartRefusal(error)) {
    // A route that reads multipart without multipartRefusal of its own still answers 400.
    const refusal = multipartRefusal(error)!;
    status = refusal.statusCode;
    message = refusal.message;
    code = refusal.code;
  } else if (error.validation) {
    status = 400;
    const where = error.validationContext ?? 'request';
    message = `bad ${where}: ${error.message.replace(/^(body|querystring|params|headers)\/?/, '').trim()}`;
    code = 'validation';
  } else if (error.code === 'FST_REQ_FILE_TOO_LARGE' || error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    status = 413;
    message = 'request too large';
    code = 'too-large';
  } else if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
    status = error.statusCode;
    message = error.message || STATUS_TEXT[status] || 'bad request';
    code = error.code;
  } else {
    const p = prismaStatus(error);
    if (p) {
      status = p;
      message = p === 404 ? 'not found' : 'conflict with existing data';
    }
  }
  if (status >= 500) request.log.error({ err: error }, 'request failed');
  else request.log.info({ status, message }, 'request refused');
  const body: ErrorBody = { statusCode: status, error: STATUS_TEXT[status] ?? 'Error', message };
  if (code) body.code = code;
  if (details) Object.assign(body, details);
  return body;
}

export function errorHandler(this: unknown, error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const body = classifyError(error, request);
  // The message follows the request's language where the refusal's code has a translation; the code never changes.
  if (body.code && request.lang && request.lang !== 'en') {
    const retry = (error as { retryAfterSeconds?: unknown }).retryAfterSeconds;
    body.message = localizeRefusal(
      { code: body.code, message: body.message, ...(typeof retry === 'number' ? { retryAfterSeconds: retry } : {}) },
      request.lang,
    );
  }
  void reply.status(body.statusCode).send(body);
}
