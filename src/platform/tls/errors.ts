/**
 * What went wrong with a certificate, said so that an operator knows what to fix: every message
 * names the file, the name or the port involved and the way out. `svc up` prints it and stops.
 */
export class TlsError extends Error {
  override readonly name = 'TlsError';
}

/** The message of anything thrown, for wrapping into a TlsError. */
export function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
