import type { TlsConfig } from '../../config/config.js';

/** The ports a config sets, by their setting's name without `_port` (config.json's `ports`, an edge's `cdn`). */
export interface PortSettings {
  ports: Readonly<Record<string, number>>;
  tls?: Pick<TlsConfig, 'ports'> | null;
}

/** A process holding a port, as the message names it. */
export interface PortHolder {
  pid: number;
  command: string;
}

/** "2026/11/27 01:20:49 [emerg] 14874#14874: bind() ..." once nginx logs, "nginx: [emerg] ..." before: the message alone and its level. */
function parseLine(line: string): { level: string | null; text: string } {
  const logged = /^\d{4}\/\d\d\/\d\d \d\d:\d\d:\d\d \[(\w+)\] \d+#\d+: (?:\*\d+ )?(.*)$/.exec(line);
  if (logged) return { level: logged[1] as string, text: logged[2] as string };
  const early = /^nginx: \[(\w+)\] (.*)$/.exec(line);
  if (early) return { level: early[1] as string, text: early[2] as string };
  return { level: null, text: line };
}

const FATAL = new Set(['emerg', 'alert', 'crit']);

/** nginx's own reason, from its last output: each fatal message once, in order (it repeats a failed bind five times). */
export function nginxReason(output: readonly string[]): string {
  const parsed = output.map(parseLine);
  const fatal = parsed.filter((l) => l.level !== null && FATAL.has(l.level)).map((l) => l.text);
  const chosen = fatal.length ? fatal : parsed.slice(-3).map((l) => l.text);
  return [...new Set(chosen)].join('; ') || 'it printed nothing';
}

/** The config.json setting a port comes from, when it is one of the appliance's own. */
function settingOf(config: PortSettings, port: number): string | null {
  const found = Object.entries(config.ports).find(([, p]) => p === port);
  if (found) return `${found[0]}_port`;
  const tls = Object.entries(config.tls?.ports ?? {}).find(([, p]) => p === port);
  return tls ? `tls.${tls[0]}_port` : null;
}

/**
 * What an operator reads when nginx could not start: its own reason and, for a port it could not
 * bind ("bind() to 0.0.0.0:1935 failed (98: Address already in use)"), who holds that port now
 * and what to do about it.
 */
export function nginxStartFailure(opts: {
  output: readonly string[];
  /** "exited with code 1" / "runs (pid 12) but did not answer its control socket within 60 s" */
  what: string;
  config: PortSettings;
  /** The file that sets those ports (default config.json; an edge's edge.json). */
  file?: string;
  holders: (port: number) => PortHolder[];
}): string {
  const reason = nginxReason(opts.output);
  const ports = [...new Set([...reason.matchAll(/bind\(\) to \S*:(\d+) failed \(98: /g)].map((m) => Number(m[1])))];
  const advice = ports.map((port) => {
    const setting = settingOf(opts.config, port);
    const holders = opts.holders(port);
    const change = setting ? `set another ${setting} in ${opts.file ?? 'config.json'}` : 'free it';
    if (holders.length === 0)
      return `port ${port}${setting ? ` (${setting})` : ''} is free again: it was taken while nginx started; start again, or ${change}`;
    const who = holders.map((h) => `pid ${h.pid} (${h.command.slice(0, 120)})`).join(', ');
    return `port ${port}${setting ? ` (${setting})` : ''} is held by ${who}: stop that process or ${change}`;
  });
  return [`nginx ${opts.what}: ${reason}`, ...advice].join('. ');
}
