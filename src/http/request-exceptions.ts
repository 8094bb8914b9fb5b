/**
 * Symfony's request exceptions (RequestExceptionInterface): what a request's own data makes impossible to
 * answer. The kernel turns each into a BadRequestHttpException that wraps it, so the log line and the error
 * page show it as the previous exception, with the reference's class names.
 */
export class SuspiciousOperationException extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SuspiciousOperationException';
  }
}

export class ConflictingHeadersException extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConflictingHeadersException';
  }
}
