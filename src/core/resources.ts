import { join } from 'node:path';
import nunjucks from 'nunjucks';
import { packageRoot } from './package-root.js';

/**
 * The package's own files, by kind: `appliance/` holds what is shipped and read as is, `templates/`
 * what is rendered. Each has one folder per consumer, named after it (`db`, `nginx`, `systemd`,
 * `player`, `dashboard`), so a file's folder says what depends on it. Only this module knows
 * where they are.
 */

/** Who reads a file shipped as is: `appliance/<consumer>/`. */
export type ShippedFor = 'db' | 'nginx' | 'player' | 'dashboard';

/** A file (or folder) shipped as is, e.g. `shippedFile('player', 'player.css')`. */
export const shippedFile = (consumer: ShippedFor, ...path: string[]): string =>
  join(packageRoot, 'appliance', consumer, ...path);

/**
 * nunjucks over `templates/`; template names start with their consumer's folder (`player/page.njk`,
 * `nginx/nginx.conf.njk`).
 * A page escapes every value for HTML; a config file takes values as given (they are checked before
 * they get here). An undefined value is an error either way, never an empty string.
 */
export function templateEnvironment(kind: 'page' | 'config'): nunjucks.Environment {
  return new nunjucks.Environment(new nunjucks.FileSystemLoader(join(packageRoot, 'templates')), {
    autoescape: kind === 'page',
    throwOnUndefined: true,
  });
}
