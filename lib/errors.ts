// The error hierarchy of the API. Each maps to one status and code of the contract's
// section 2; lib/http/errors.ts turns them into the envelope.

export interface ErrorDetail {
  path: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export class ValidationError extends ApiError {
  constructor(details: ErrorDetail[], message = 'The request is not valid.') {
    super(400, 'VALIDATION_ERROR', message, details);
  }
  static field(path: string, message: string): ValidationError {
    return new ValidationError([{ path, message }]);
  }
}
export class InvalidJson extends ApiError {
  constructor() { super(400, 'INVALID_JSON', 'The request body is not valid JSON.'); }
}
export class ReplyDepthExceeded extends ApiError {
  constructor() {
    super(400, 'REPLY_DEPTH_EXCEEDED',
      'Replies cannot be replied to. Reply to the top-level comment and name the reply in "replyTo".');
  }
}
export class SelfAction extends ApiError {
  constructor(message = 'You cannot do this to yourself.') { super(400, 'SELF_ACTION', message); }
}
export class Unauthorized extends ApiError {
  constructor(message = 'A valid Bearer token is required.') {
    super(401, 'UNAUTHORIZED', message, undefined, { 'WWW-Authenticate': 'Bearer' });
  }
}
export class InvalidCredentials extends ApiError {
  constructor() { super(401, 'INVALID_CREDENTIALS', 'The username, e-mail address or password is wrong.'); }
}
/** A verification, reset or e-mail change token that is wrong, spent, voided, expired or of another kind: one message for all (contract section 16). */
export class InvalidToken extends ApiError {
  constructor() { super(400, 'INVALID_TOKEN', 'This link or code is not valid. It may have expired or been used already: ask for a new one.'); }
}
export class Forbidden extends ApiError {
  constructor(message = 'You are not allowed to do this.') { super(403, 'FORBIDDEN', message); }
}
export class FollowLimitReached extends ApiError {
  constructor(limit: number) {
    // Thousands grouped by hand: toLocaleString would load ICU's number data on this path.
    super(403, 'FOLLOW_LIMIT_REACHED', `You cannot follow more than ${String(limit).replace(/\B(?=(\d{3})+$)/g, ',')} accounts.`);
  }
}
export class PrivateAccount extends ApiError {
  constructor() { super(403, 'PRIVATE_ACCOUNT', 'This account is private. Follow it and wait for approval to see its posts and lists.'); }
}
export class NotFound extends ApiError {
  constructor(what = 'record') { super(404, 'NOT_FOUND', `No such ${what}.`); }
}
export class Conflict extends ApiError {
  constructor(code: 'USERNAME_TAKEN' | 'EMAIL_TAKEN', message: string) { super(409, code, message); }
}
export class IdempotencyKeyInUse extends ApiError {
  constructor() {
    super(409, 'IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still being answered. Retry in a moment.');
  }
}
export class IdempotencyKeyReused extends ApiError {
  constructor() {
    super(422, 'IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used for another request (another route, path or body). Send a new key.');
  }
}
export class PayloadTooLarge extends ApiError {
  constructor(limit: number) { super(413, 'PAYLOAD_TOO_LARGE', `The request body is larger than ${limit / 1024} KiB.`); }
}
export class UnsupportedMediaType extends ApiError {
  constructor() { super(415, 'UNSUPPORTED_MEDIA_TYPE', 'A request body must be sent with Content-Type: application/json.'); }
}
export class TooManyAttempts extends ApiError {
  constructor(retryAfterSeconds: number, message = 'Too many failed logins. Try again later.') {
    super(429, 'TOO_MANY_ATTEMPTS', message, undefined,
      { 'Retry-After': String(retryAfterSeconds) });
  }
}
export class InternalError extends ApiError {
  constructor() { super(500, 'INTERNAL_ERROR', 'Something went wrong on our side. Please try again.'); }
}
