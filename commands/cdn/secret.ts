import { SvcCommand } from '../../src/cli/base-command.js';
import { cdnSecret } from '../../src/domains/ledger/cdn/addresses.js';

export default class CdnSecret extends SvcCommand<typeof CdnSecret> {
  static override summary =
    'Print the secret playback addresses are signed with, for a CDN that checks them at its edge.';
  static override description =
    'A CDN function that checks the `svc` token on every request (docs/operations.md, "Any CDN in front") needs it. Whoever has it can sign any playback or recording address of this appliance: keep it in the CDN\'s function only. Derived from the signing key: it changes only if secrets.json does.';
  static override examples = ['<%= config.bin %> cdn secret', '<%= config.bin %> cdn secret --json'];

  async run(): Promise<{ cdn_secret: string }> {
    const secret = cdnSecret(this.loadSecrets().signing_key);
    this.log(secret);
    return { cdn_secret: secret };
  }
}
