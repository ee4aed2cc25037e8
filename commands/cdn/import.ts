import { Flags } from '@oclif/core';
import { SvcCommand } from '../../src/cli/base-command.js';
import type { ImportedFile } from '../../src/domains/ledger/edges/cdn-import.js';
import { importCdnLogs } from '../../src/operator/cdn-import.js';

export default class CdnImport extends SvcCommand<typeof CdnImport> {
  static override summary = "Add a third-party CDN's access logs to the ledger (Cloudflare Logpush http_requests).";
  static override description =
    'Each file (NDJSON, gzipped or not) counts once: it is known by the digest of its content, recorded in the transaction that adds its delivered bytes, viewers and countries; importing it again adds nothing and says so. The fields it reads and how other CDNs map: docs/operations.md, "Any CDN in front".';
  static override examples = [
    '<%= config.bin %> cdn import --source cloudflare 20261127T100000Z_20261127T100500Z_1a2b3c4d.log.gz',
    '<%= config.bin %> cdn import --source edg_8f3k2m9q7x1c4v6b0n5z logs/*.log.gz --json',
  ];
  static override strict = false;
  static override flags = {
    source: Flags.string({
      summary: 'The CDN the files come from: its name or id (`svc edges add --kind cdn`).',
      required: true,
    }),
  };

  async run(): Promise<{ files: ImportedFile[] }> {
    const { argv } = await this.parse(CdnImport);
    const files = argv as string[];
    if (files.length === 0) this.error('name at least one log file', { exit: 2 });
    const done = await importCdnLogs(this.loadConfig(), this.loadSecrets(), this.flags.source, files, (f) =>
      this.log(
        f.imported
          ? `${f.file}: ${f.lines} lines, ${f.delivered_bytes} bytes delivered${f.skipped ? `, ${f.skipped} lines skipped` : ''}`
          : `${f.file}: already imported (${f.imported_at}); nothing added`,
      ),
    );
    return { files: done };
  }
}
