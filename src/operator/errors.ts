/**
 * A step of the operator's lifecycle that cannot go on (the database is not running, svc did not
 * start); `message` says what to do next. The CLI prints it as it prints its own errors.
 */
export class OperatorError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}
