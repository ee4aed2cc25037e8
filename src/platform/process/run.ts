import { execa, type Options } from 'execa';

export interface RunOptions {
  cwd?: string;
  env?: Record<string, string>;
  /** Run as this user (root only): PostgreSQL refuses to run as root. */
  user?: { uid: number; gid: number };
  /** Called with each line of output, for progress. */
  onLine?: (line: string) => void;
  timeoutMs?: number;
  /** Return stdout alone (for output that is parsed) instead of stdout and stderr interleaved. */
  stdoutOnly?: boolean;
}

export class CommandError extends Error {
  constructor(
    readonly command: string,
    readonly exitCode: number | undefined,
    readonly output: string,
  ) {
    super(`${command} failed${exitCode === undefined ? '' : ` (exit ${exitCode})`}: ${lastLines(output)}`);
  }
}

const lastLines = (text: string, n = 3): string => text.trim().split('\n').slice(-n).join(' | ');

/** Runs a program to completion without a shell; the one place one-shot commands are spawned. */
export async function run(file: string, args: string[], options: RunOptions = {}): Promise<string> {
  const execaOptions: Options = {
    cwd: options.cwd,
    env: options.env,
    extendEnv: true,
    all: true,
    reject: false,
    timeout: options.timeoutMs,
    uid: options.user?.uid,
    gid: options.user?.gid,
    stdin: 'ignore',
  };
  const child = execa(file, args, execaOptions);
  if (options.onLine) {
    const onLine = options.onLine;
    child.all?.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) if (line.trim()) onLine(line);
    });
  }
  const result = await child;
  const output = String((options.stdoutOnly ? result.stdout : result.all) ?? '');
  if (result.failed) {
    const command = [file, ...args].join(' ');
    if (result.code === 'ENOENT' || /ENOENT/.test(String(result.message)))
      throw new CommandError(command, undefined, `${file} not found`);
    throw new CommandError(command, result.exitCode, String(result.all ?? '') || String(result.message));
  }
  return output;
}
