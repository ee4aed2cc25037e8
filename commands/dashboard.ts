import { Flags } from '@oclif/core';
import { SvcCommand } from '../src/cli/base-command.js';
import { openDatabase } from '../src/operator/database.js';
import { systemClock } from '../src/core/clock.js';
import { iso } from '../src/core/time.js';
import { dashboardUrl, operatorToken, ACCESS_REFRESH_MS } from '../src/domains/surfaces/dashboard/access.js';
import { currentAccess, rotateAccess } from '../src/domains/surfaces/dashboard/queries.js';

export interface DashboardAddress {
  object: 'dashboard_access';
  /** `{player_url}/dashboard#token=...`: open it in a browser (the token stays in the fragment). */
  url: string;
  token: string;
  generation: number;
  rotated_at: string | null;
}

export default class Dashboard extends SvcCommand<typeof Dashboard> {
  static override summary =
    'Print the operator dashboard address, with the operator token; --rotate makes a new token.';
  static override description =
    "The dashboard shows every account's live and recent streams, ingest and viewer charts, recordings, webhook endpoints with failing deliveries, balances and the health of every part. Whoever has the address sees all of it: keep it like a password. --rotate revokes the token before (open dashboards are refused within seconds) and prints the new address. Needs the database running (`svc up`).";
  static override examples = [
    '<%= config.bin %> dashboard',
    '<%= config.bin %> dashboard --json',
    '<%= config.bin %> dashboard --rotate',
  ];
  static override flags = {
    rotate: Flags.boolean({ summary: 'Revoke the current operator token and print the address with a new one.' }),
  };

  async run(): Promise<DashboardAddress> {
    const config = this.loadConfig();
    const secrets = this.loadSecrets();
    const sql = await openDatabase(config, secrets);
    this.defer(() => sql.end({ timeout: 5 }));
    const access = this.flags.rotate ? await rotateAccess(sql, systemClock.now()) : await currentAccess(sql);
    const token = operatorToken(secrets.signing_key, access.generation);
    const url = dashboardUrl(config.publicUrls.player_url, token);
    this.log(url);
    this.log(
      this.flags.rotate
        ? `A new operator token: the one before is refused within ${ACCESS_REFRESH_MS / 1000} s.`
        : 'Anyone with this address sees every account: keep it like a password (`svc dashboard --rotate` replaces it).',
    );
    return {
      object: 'dashboard_access',
      url,
      token,
      generation: access.generation,
      rotated_at: iso(access.rotated_at),
    };
  }
}
