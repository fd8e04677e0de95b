// What the domain refuses, in its own words: a kind of problem, a message for
// the person, and a stable code for programs. The HTTP layer maps each kind
// to a status (src/http/errors.ts); the CLI and pages show the message.

export type Problem = 'invalid' | 'unauthenticated' | 'forbidden' | 'not-found' | 'conflict' | 'too-large' | 'unprocessable' | 'too-many';

export class DomainError extends Error {
  override name = 'DomainError';
  constructor(
    readonly problem: Problem,
    message: string,
    readonly code?: string,
    /** More fields for the error body, for programs (a compile error's line and column). */
    readonly details?: Readonly<Record<string, string | number>>,
  ) {
    super(message);
  }
}

export const invalid = (message: string, code?: string) => new DomainError('invalid', message, code);
export const unauthenticated = (message: string) => new DomainError('unauthenticated', message, 'unauthorized');
export const notFound = (message: string) => new DomainError('not-found', message, 'not-found');
export const conflict = (message: string, code?: string) => new DomainError('conflict', message, code);
export const tooLarge = (message: string) => new DomainError('too-large', message, 'too-large');
export const unprocessable = (message: string, code?: string) => new DomainError('unprocessable', message, code);
export const forbidden = (message: string, code?: string) => new DomainError('forbidden', message, code ?? 'forbidden');

/** Too many of something in a window: a 429 whose Retry-After is retryAfterSeconds (the message says when too). */
export class TooManyError extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
    code = 'too-many',
  ) {
    super('too-many', message, code);
  }
}
