import { Flags } from '@oclif/core';
import { SvcCommand } from '../../src/cli/base-command.js';
import { readConfigFile, resolveConfig, writeConfigFile } from '../../src/config/config.js';
import { writeStorageSecrets } from '../../src/config/secrets.js';
import type { StorageSettings } from '../../src/config/schema.js';
import { objectStore } from '../../src/composition/storage.js';

export default class StorageSet extends SvcCommand<typeof StorageSet> {
  static override summary = 'Keep recordings in an S3-compatible bucket (AWS S3, R2, B2, Ceph RGW, MinIO).';
  static override description =
    'Writes `storage` in config.json and the key pair in secrets.json (mode 0600), after checking that the bucket answers with it. Takes effect at the next `svc up`. `--local` goes back to the data dir (recordings already in the bucket stay there). docs/operations.md, "Object storage".';
  static override examples = [
    '<%= config.bin %> storage set --endpoint http://127.0.0.1:9000 --region us-east-1 --bucket svc --path-style --access-key-id AKIA... --secret-access-key ...',
    '<%= config.bin %> storage set --local',
  ];
  static override flags = {
    local: Flags.boolean({ summary: 'Recordings in the data dir again (the default).', exclusive: ['bucket'] }),
    endpoint: Flags.string({ summary: "The S3 API's address (omit for AWS S3)." }),
    region: Flags.string({ summary: 'The region (`auto` for R2; any name for MinIO and Ceph).', default: 'us-east-1' }),
    bucket: Flags.string({ summary: 'The bucket (it must exist).' }),
    'path-style': Flags.boolean({ summary: 'Path-style addresses (MinIO, Ceph RGW).', default: false }),
    prefix: Flags.string({ summary: 'Put before every key (e.g. `svc/`).' }),
    'spool-max-mb': Flags.integer({ summary: 'Bound of the disk spool in MB (default 20480).', min: 1 }),
    'access-key-id': Flags.string({ summary: 'The access key id.' }),
    'secret-access-key': Flags.string({ summary: 'The secret access key.' }),
    'no-check': Flags.boolean({ summary: 'Do not check that the bucket answers (it is checked at `svc up` anyway).' }),
  };

  async run(): Promise<{ storage: StorageSettings | null }> {
    const f = this.flags;
    const file = readConfigFile(this.dataDir);
    if (!file) throw new Error(`${this.dataDir} is not initialised: run \`svc init --data-dir ${this.dataDir}\``);
    if (f.local) {
      writeConfigFile(this.dataDir, { ...file, storage: null });
      writeStorageSecrets(this.dataDir, null);
      this.log('recordings stay in the data dir from the next `svc up`');
      return { storage: null };
    }
    if (!f.bucket || !f['access-key-id'] || !f['secret-access-key'])
      throw new Error('--bucket, --access-key-id and --secret-access-key are needed (or --local)');
    const storage: StorageSettings = {
      kind: 's3',
      region: f.region,
      bucket: f.bucket,
      force_path_style: f['path-style'],
      ...(f.endpoint ? { endpoint: f.endpoint } : {}),
      ...(f.prefix ? { prefix: f.prefix } : {}),
      ...(f['spool-max-mb'] ? { spool_max_mb: f['spool-max-mb'] } : {}),
    };
    const pair = { access_key_id: f['access-key-id'], secret_access_key: f['secret-access-key'] };
    const next = { ...file, storage };
    // Validates the settings (a clear error naming the key) and checks the bucket before anything is written.
    const config = resolveConfig(this.dataDir, next);
    if (!f['no-check']) {
      const store = objectStore(config, { ...this.loadSecrets(), storage: pair })!;
      try {
        await store.check();
      } finally {
        store.destroy();
      }
    }
    writeStorageSecrets(this.dataDir, pair);
    writeConfigFile(this.dataDir, next);
    this.log(
      `recordings go to ${config.storage?.endpoint ?? 'AWS S3'} bucket "${storage.bucket}" from the next \`svc up\``,
    );
    return { storage };
  }
}
