/**
 * `npm run build`'s last step: writes oclif.manifest.json, the commands' ids, flags, args and help
 * text. Without it oclif imports every command file on every run to learn them (114 modules before
 * `svc accounts list --help` prints a line); with it, help loads no command and a command loads
 * only its own imports. Written at every build, so it cannot fall behind the commands it lists.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Plugin } from '@oclif/core';
import { packageRoot } from '../core/package-root.js';

const plugin = new Plugin({ root: packageRoot, type: 'core', ignoreManifest: true, errorOnManifestCreate: true });
await plugin.load();
writeFileSync(join(packageRoot, 'oclif.manifest.json'), JSON.stringify(plugin.manifest) + '\n');
console.log(`wrote oclif.manifest.json (${Object.keys(plugin.manifest.commands).length} commands)`);
