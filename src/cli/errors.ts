import { Errors } from '@oclif/core';
import { ConfigError } from '../config/config.js';
import { TlsError } from '../platform/tls/errors.js';
import { ApiError } from '../core/errors.js';
import { CommandError } from '../platform/process/run.js';
import { MissingPackagesError } from '../platform/system/packages.js';
import { OperatorError } from '../operator/errors.js';

/** A failure the CLI itself detects; `message` says what to do next. */
export class CliError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

/** The API's own error document (`{"error": {"code", "message", ...}}`), passed through as is. */
export interface ApiErrorDocument {
  error: { code: string; message: string; [key: string]: unknown };
}

export class ApiResponseError extends Error {
  constructor(
    readonly status: number,
    readonly document: ApiErrorDocument,
  ) {
    super(document.error.message);
  }
}

export interface DescribedError {
  /** What `--json` prints on stdout. */
  document: ApiErrorDocument;
  /** The one line printed on stderr after `Error: `. */
  line: string;
  exitCode: number;
}

const oneLine = (text: string): string => text.replace(/\s*\n\s*/g, ' ').trim();

/** oclif's parser errors are several lines with a help hint; keep the reason, point at --help. */
function usageMessage(message: string): string {
  const reason = oneLine(
    message.replace(/The following errors? occurred:/i, '').replace(/See more help with --help/i, ''),
  );
  return `${reason} (see --help)`;
}

/** Every error a command can end with, mapped to the JSON envelope and one human line. */
export function describeError(err: unknown): DescribedError {
  const make = (code: string, message: string, details?: Record<string, unknown>, exitCode = 1): DescribedError => ({
    document: { error: { code, message, ...(details && Object.keys(details).length ? { details } : {}) } },
    line: message,
    exitCode,
  });
  if (err instanceof ApiResponseError) {
    const { code, message } = err.document.error;
    return { document: err.document, line: `${code}: ${oneLine(message)}`, exitCode: 1 };
  }
  if (err instanceof ApiError) {
    const described = make(err.code, err.message, err.details);
    return { ...described, line: `${err.code}: ${oneLine(err.message)}` };
  }
  if (err instanceof CliError) return make(err.code, oneLine(err.message), err.details, err.exitCode);
  if (err instanceof OperatorError) return make(err.code, oneLine(err.message), err.details);
  if (err instanceof ConfigError) return make('invalid_config', oneLine(err.message));
  if (err instanceof TlsError) return make('tls_failed', oneLine(err.message));
  if (err instanceof MissingPackagesError)
    return make('missing_packages', oneLine(err.message), { missing: err.missing, command: err.command });
  if (err instanceof CommandError)
    return make('command_failed', oneLine(err.message), { command: err.command, exit_code: err.exitCode ?? null });
  // Parser errors (unknown flag, missing argument, bad option value).
  if (err instanceof Errors.CLIError) return make('invalid_usage', usageMessage(err.message), undefined, 2);
  const sys = err as { code?: unknown; address?: unknown; port?: unknown };
  if (sys?.code === 'EADDRINUSE') {
    return make(
      'port_in_use',
      `${String(sys.address ?? '')}:${String(sys.port ?? '')} is already in use: stop what listens there or pick other ports (\`svc init --api-port N ...\`)`,
    );
  }
  if (isConnectionError(err)) {
    return make(
      'database_unreachable',
      `cannot reach the database (${err.code}): check that it is running (\`svc status\`) and that database_url is right`,
    );
  }
  const message = err instanceof Error ? err.message : String(err);
  return make('internal_error', oneLine(message) || 'unexpected error');
}

function isConnectionError(err: unknown): err is Error & { code: string } {
  const code = (err as { code?: unknown } | null)?.code;
  return (
    err instanceof Error &&
    typeof code === 'string' &&
    ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'CONNECT_TIMEOUT'].includes(code)
  );
}
