import type { Config } from '../config/config.js';
import type { Secrets } from '../config/secrets.js';
import { systemClock } from '../core/clock.js';
import { CdnLogImporter, type ImportedFile } from '../domains/ledger/edges/cdn-import.js';
import { cdnViewerKey } from '../domains/ledger/cdnlog/viewer-id.js';
import { openDatabase } from './database.js';
import { OperatorError } from './errors.js';

/**
 * `svc cdn import`: a registered CDN's log files into the ledger, each file in one transaction
 * (docs/operations.md, "Any CDN in front"). `progress` hears of each file as it is done.
 */
export async function importCdnLogs(
  config: Config,
  secrets: Secrets,
  sourceName: string,
  files: string[],
  progress: (file: ImportedFile) => void = () => {},
): Promise<ImportedFile[]> {
  const sql = await openDatabase(config, secrets);
  try {
    const importer = new CdnLogImporter({ sql, clock: systemClock, viewerKey: cdnViewerKey(secrets.signing_key) });
    const source = await importer.source(sourceName);
    if (!source)
      throw new OperatorError(
        'unknown_cdn',
        `no CDN named ${JSON.stringify(sourceName)}: register it with \`svc edges add --kind cdn --name NAME\` (\`svc edges list\` shows those there are)`,
        { source: sourceName },
      );
    const done: ImportedFile[] = [];
    for (const file of files) {
      let result: ImportedFile;
      try {
        result = await importer.importFile(source, file);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR')
          throw new OperatorError('unreadable_file', `cannot read ${file} (${code}); files before it were imported`, {
            file,
            imported: done.map((d) => d.file),
          });
        if (code === 'Z_DATA_ERROR' || code === 'Z_BUF_ERROR')
          throw new OperatorError(
            'unreadable_file',
            `${file} is not a complete gzip file (${code}): nothing of it was imported; files before it were`,
            { file, imported: done.map((d) => d.file) },
          );
        throw err;
      }
      done.push(result);
      progress(result);
    }
    return done;
  } finally {
    await sql.end({ timeout: 5 });
  }
}
