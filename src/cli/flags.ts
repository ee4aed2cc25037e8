import { Flags } from '@oclif/core';

const port = (summary: string) => Flags.integer({ summary, min: 1, max: 65535 });

/** Settings written to config.json by `svc init`, and by `svc up` when it initialises or is given them. */
export const configFlags = {
  'database-url': Flags.string({
    summary: 'Use this external PostgreSQL server instead of the appliance-owned cluster (postgres://...).',
  }),
  host: Flags.string({ summary: 'Host name (or address) in the public URLs; default 127.0.0.1.' }),
  'api-port': port('Port of the HTTP API (default 8080).'),
  'rtmp-port': port('Port of RTMP ingest (default 1935).'),
  'cdn-port': port('Port of the CDN origin (default 8081).'),
  'player-port': port('Port of the hosted player (default 8082).'),
  'postgres-port': port('Loopback port of the appliance-owned PostgreSQL (default 5439).'),
  'metrics-port': port('Port of the Prometheus metrics on 127.0.0.1 (default: none; 9464 is usual).'),
  'api-workers': Flags.integer({
    summary:
      'API worker processes behind nginx on the API port (0-16; default: none below 4 cores, else half the cores, at most 4).',
    min: 0,
    max: 16,
  }),
  'allow-private-webhooks': Flags.boolean({
    summary: 'Allow http and private/loopback webhook targets (local testing only).',
    allowNo: true,
  }),
  'whip-udp-ports': Flags.string({
    summary: 'UDP ports of WHIP (browser) media, MIN-MAX (default 40000-40999); open them in the firewall.',
  }),
  'ice-address': Flags.string({
    summary:
      'Public IPv4 address announced to browsers for WHIP media (behind 1:1 NAT); repeat for several. Default: --host when it is an IPv4 address.',
    multiple: true,
  }),
  domain: Flags.string({
    summary:
      'Public name of this machine: turns on HTTPS for every surface and RTMPS (needs --acme-email or --certificate-file).',
  }),
  'player-domain': Flags.string({
    summary: 'Name of the hosted player on port 443 (default: --domain, on --player-port).',
  }),
  'cdn-token-form': Flags.string({
    summary:
      'Where playback addresses carry their signature: path (default) or query, for a third-party CDN in front (docs/operations.md, "Any CDN in front").',
    options: ['path', 'query'],
  }),
  'cdn-domain': Flags.string({ summary: 'Name of the CDN origin on port 443 (default: --domain, on --cdn-port).' }),
  'acme-email': Flags.string({
    summary: "Contact of the ACME account: certificates from Let's Encrypt (or --acme-directory).",
  }),
  'acme-directory': Flags.string({ summary: "ACME directory URL (default: Let's Encrypt's)." }),
  'acme-ca-file': Flags.string({ summary: 'PEM bundle to trust the ACME directory with (a private CA).' }),
  'certificate-file': Flags.string({ summary: 'Your own certificate chain (PEM), instead of ACME; with --key-file.' }),
  'key-file': Flags.string({ summary: 'The key of --certificate-file (PEM).' }),
  'https-port': port('Port of HTTPS with --domain (default 443).'),
  'http-port': port('Port of ACME challenges and the redirect to HTTPS with --domain (default 80).'),
  'rtmps-port': port('Port of RTMPS ingest with --domain (default 1936).'),
  tls: Flags.boolean({ summary: '--no-tls turns HTTPS off again (plain http, as before --domain).', allowNo: true }),
  install: Flags.boolean({
    summary: 'Check the system packages and install what is missing (--no-install skips the check).',
    allowNo: true,
    default: true,
  }),
};
