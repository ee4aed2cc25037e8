/**
 * The layers of svc, bottom to top, and the rules that keep imports pointing down.
 * `npm run check` runs dependency-cruiser with this file; `npm run docs` draws
 * docs/architecture.md's pictures and its source-layout table from `layers` and from the code.
 * This list is the source of truth: change the architecture here first.
 *
 * A module may import its own folder and anything below it, never above. Inside `platform` the
 * folders are ordered: a folder may import only folders listed before it. `domains` is made of
 * groups on tiers: a group may import the groups on lower tiers, never a sibling on its own tier
 * nor anything higher; inside a group the domains are ordered like platform's folders. A domain
 * with `doors` is entered by other domains only through those files (see `doorRules`).
 */
export const layers = [
  {
    name: 'core',
    path: 'src/core',
    what: "errors, clock, ids, money, time, logger, the package's own files (templates, files shipped as is): no imports from svc",
  },
  { name: 'config', path: 'src/config', what: 'data dir paths, the config file, secrets' },
  {
    name: 'platform',
    path: 'src/platform',
    what: 'machinery that knows no stream: child processes, system packages, object storage (`ObjectStore`: the data dir, the origin, S3), PostgreSQL, jobs, pure media logic and command lines, the HTTP kit, certificates (ACME), nginx',
    order: ['process', 'system', 'storage', 'db', 'jobs', 'media', 'webrtc', 'http', 'tls', 'nginx'],
  },
  {
    name: 'domains',
    path: 'src/domains',
    what: 'the capabilities of the spec, in six groups: routes, schemas, queries, services, workers',
    groups: [
      {
        name: 'ledger',
        tier: 0,
        what: 'who pays and what is on record',
        domains: [
          {
            name: 'accounts',
            what: 'accounts, API keys, viewer keys (operator actions); API-key authentication of requests (`auth.ts`) and its cache; what other domains know of an account (`model.ts`: the row, its lock, the reads they make)',
            doors: ['model', 'auth', 'service'],
          },
          {
            name: 'events',
            what: "the events outbox (`appendEvent`, called inside each transition's transaction) that webhooks deliver",
          },
          {
            name: 'idempotency',
            what: '`Idempotency-Key` records (sealed responses, 24 h): a retried creation returns the first response',
          },
          {
            name: 'cdn',
            what: 'every CDN address (`addresses.ts`: signed playlists and recordings, public stills, checked by nginx with no API call; the CDN secret)',
          },
          {
            name: 'cdnlog',
            what: 'the CDN log reader (`reader.ts`, the `cdn-log` job): the log line (`line.ts`), what a batch counts (`aggregate.ts`: delivered bytes, viewer ids), files by identity (`log-file.ts`), its tables and the reads other domains use (`queries.ts`: `countedUntil`, `deliveredBytes`, CDN minutes and countries); the viewer-id key (`viewer-id.ts`); the log lines of a third-party CDN (Cloudflare Logpush, `logpush.ts`)',
          },
          {
            name: 'billing',
            what: 'prices, the charges ledger (priced once per stream), credit, usage and cost (`GET /v1/usage`)',
          },
          {
            name: 'edges',
            what: "the edge tier as the origin sees it (`service.ts`): edges and CDNs, joins, credentials (`credentials.ts`), heartbeats, the edge routes (`routes.ts`, hidden from OpenAPI) and an edge's log batches counted once; the edge's side of its log (`api-log-sink.ts`); a third-party CDN's log files imported once each (`cdn-import.ts`)",
          },
          {
            name: 'nodes',
            what: 'the ingest nodes of a cluster as PostgreSQL knows them: joins, heartbeats, drain and removal, the node credential the origin checks (`credentials.ts`)',
          },
        ],
      },
      {
        name: 'streams',
        tier: 1,
        what: 'the stream: the one domain every other group builds on',
        domains: [
          {
            name: 'streams',
            what: "the vocabulary, the row and its shared helpers, capacity and the latency modes (`model.ts`), schemas, routes, service (limits, lifecycle), queries, transitions, presentation; playback tokens (`playback.routes.ts`); the public address's refusals kept current (`public-playback.ts`); channels (`channels/`: `/v1/channels`, the settings streams created in one start with)",
            doors: ['model', 'service', 'transitions'],
          },
        ],
      },
      {
        name: 'engine',
        tier: 2,
        what: "the media pipeline: what happens to a stream's video",
        domains: [
          {
            name: 'outputs',
            what: "restreaming outputs of a stream, the API's side (`/v1/streams/{id}/outputs`: schemas, routes, service, queries; `target.ts`: what an output URL may be, the key masked) and the pushes of a node's live streams (`pushers.ts`: following `stream_outputs` every live tick; `pusher.ts`: one ffmpeg copying the source to an RTMP(S)/SRT target, backoff, status, `output.*` events; `push-args.ts`: its command line; `push-queries.ts`)",
          },
          { name: 'thumbnails', what: 'stills of live streams (one ffmpeg per still from a published segment)' },
          {
            name: 'live',
            what: "the live pipeline of a node: `service.ts` ticks its duties — the gate (`gate.ts`: nginx's publish hooks, `admission.ts` decides), the workers (`workers.ts`, one `worker.ts` per live stream: ladder + `uploader.ts`), the ending rules (`ending.ts`: reconnect window, maximum duration, ingest limits measured by `ingest-meter.ts`; `evidence.ts`: when a stream's media last arrived), the ingest series (`history.ts`: a sample every 10 s, kept 7 days) and the origin cleanup (`origin.ts`)",
          },
          {
            name: 'whip',
            what: 'WHIP ingest (RFC 9725): the endpoint at `whip_url` (`routes.ts`: POST offer, DELETE session, CORS) and the sessions (`service.ts`: the RTMP admission rules asked first, a WebRTC receiver and an ffmpeg relay into nginx per session)',
          },
          {
            name: 'srt',
            what: "SRT ingest: a relay per stream that can be published to (`service.ts`: listens on the stream's UDP port with its passphrase, copies MPEG-TS into nginx over RTMP with a one-time credential), following the streams in `queries.ts`",
          },
          {
            name: 'recordings',
            what: "one MP4 per broadcast: recording files, the recordings job (remux, retries, retention), delete and signed download; the thumbnail endpoints (`thumbnails.ts`: the current still's signed address, a recording's still at a chosen second made once by ffmpeg)",
          },
        ],
      },
      {
        name: 'audience',
        tier: 2,
        what: 'the people watching: counts, tokens, attendance, chat',
        domains: [
          {
            name: 'viewers',
            what: "viewer counting: the in-memory counter (exact, then sampled, a budget per address), per-minute flushes to PostgreSQL, the figures on stream reads (the player's, then the CDN log's once it covers a stream), watch minutes per day for usage",
          },
          { name: 'bans', what: 'chat bans (banning, listing, lifting)' },
          { name: 'moderators', what: 'chat moderators and their invitation links' },
          {
            name: 'identity',
            what: "viewer keys' tokens (`viewer-token.ts`) and the sessions they open (`session-token.ts`: the appliance's own token; `service.ts`)",
          },
          {
            name: 'attendance',
            what: 'attendance lists of members-only streams (`recorder.ts`: what sessions report, flushed in batches)',
          },
          {
            name: 'chat',
            what: "chat: posting (nicknames, origins, slow mode), moderation, the feeds and the hub between nodes (`hub.ts`), anonymous posters' networks by keyed hash (`network.ts`)",
          },
        ],
      },
      {
        name: 'back-office',
        tier: 2,
        what: 'work done after the fact, for the account holder',
        domains: [
          {
            name: 'metering',
            what: 'charging closed minutes (ingest, delivery) and hours (storage) into the ledger, then the credit rules: prepaid streams without credit end, warnings, recordings on a deadline',
          },
          {
            name: 'webhooks',
            what: 'endpoints and delivery log (schemas, routes, service, queries), the dispatcher (`dispatcher.worker.ts`), the sender (`sender.ts`), Standard Webhooks signing (`signing.ts`), the SSRF guard (`ssrf.ts`)',
          },
        ],
      },
      {
        name: 'surfaces',
        tier: 3,
        what: 'what browsers open: pages put together from the groups below',
        domains: [
          {
            name: 'embed',
            what: 'the public side: embed read and beats (no key, any origin), the unknown-id limit per address',
          },
          {
            name: 'player',
            what: 'the hosted player: page rendering (`page.ts`), its routes (`routes.ts`, hidden from OpenAPI) and its assets (`assets.ts`: the player and publish scripts, hls.js)',
          },
          {
            name: 'dashboard',
            what: 'the operator dashboard: the page and its data on the player site (`routes.ts`, hidden from OpenAPI), what it reads across every account (`service.ts`, `queries.ts`), the operator token (`access.ts`: derived from the signing key and a generation, checked with a 5-second cache)',
          },
        ],
      },
    ],
  },
  {
    name: 'api',
    path: 'src/api',
    what: 'the HTTP API assembled: every domain route on one server, root routes and the reference',
  },
  {
    name: 'composition',
    path: 'src/composition',
    what: 'the composition root: builds every service, worker and job; starts and stops them',
  },
  {
    name: 'operator',
    path: 'src/operator',
    what: "the operator's lifecycle under the commands: init, up (foreground or detached), down, status, leftovers, the pid file, the systemd unit, the database for operator commands",
  },
  {
    name: 'cli',
    path: 'src/cli',
    what: 'the command kit the oclif commands share: base command, API client, flags, errors, output',
  },
  { name: 'commands', path: 'commands', what: 'one file per `svc` command' },
];

/** A group's folder; a group of one domain of its own name is that domain's folder. */
export const groupPath = (layer, group) => `${layer.path}/${group.name}`;
/** A domain's folder. */
export const domainPath = (layer, group, domain) =>
  group.domains.length === 1 && domain.name === group.name
    ? groupPath(layer, group)
    : `${groupPath(layer, group)}/${domain.name}`;
/** The folders of a layer, as the rules and the pictures see them. */
export const foldersOf = (layer) =>
  layer.order
    ? layer.order.map((f) => `${layer.path}/${f}`)
    : layer.groups
      ? layer.groups.flatMap((g) => g.domains.map((d) => domainPath(layer, g, d)))
      : [layer.path];

const alt = (paths) => `^(${paths.join('|')})/`;

function upwardRules() {
  const rules = [];
  layers.forEach((layer, i) => {
    const above = layers.slice(i + 1).map((l) => l.path);
    if (above.length) {
      rules.push({
        name: `${layer.name}-imports-upward`,
        comment: `${layer.path} may import only ${layer.name} and the layers below it (${
          layers
            .slice(0, i)
            .map((l) => l.name)
            .join(', ') || 'none'
        })`,
        severity: 'error',
        from: { path: `^${layer.path}/` },
        to: { path: alt(above) },
      });
    }
    for (const group of layer.groups ?? []) {
      const higher = layer.groups.filter((g) => g.tier > group.tier);
      const siblings = layer.groups.filter((g) => g.tier === group.tier && g !== group);
      const from = { path: `^${groupPath(layer, group)}/` };
      if (higher.length)
        rules.push({
          name: `${layer.name}-${group.name}-imports-upward`,
          comment: `${groupPath(layer, group)} may import only the groups on lower tiers: ${
            layer.groups
              .filter((g) => g.tier < group.tier)
              .map((g) => g.name)
              .join(', ') || 'none'
          }`,
          severity: 'error',
          from,
          to: { path: alt(higher.map((g) => groupPath(layer, g))) },
        });
      if (siblings.length)
        rules.push({
          name: `${layer.name}-${group.name}-imports-sideways`,
          comment: `${groupPath(layer, group)} may not import its siblings on the same tier (${siblings.map((g) => g.name).join(', ')}): what both need belongs in a lower group`,
          severity: 'error',
          from,
          to: { path: alt(siblings.map((g) => groupPath(layer, g))) },
        });
      group.domains.forEach((domain, j) => {
        const later = group.domains.slice(j + 1);
        if (!later.length) return;
        rules.push({
          name: `${layer.name}-${group.name}-${domain.name}-imports-upward`,
          comment: `${domainPath(layer, group, domain)} may import only the domains of ${group.name} listed before it: ${
            group.domains
              .slice(0, j)
              .map((d) => d.name)
              .join(', ') || 'none'
          }`,
          severity: 'error',
          from: { path: `^${domainPath(layer, group, domain)}/` },
          to: { path: alt(later.map((d) => domainPath(layer, group, d))) },
        });
      });
    }
    (layer.order ?? []).forEach((folder, j) => {
      const later = layer.order.slice(j + 1);
      if (!later.length) return;
      rules.push({
        name: `${layer.name}-${folder}-imports-upward`,
        comment: `${layer.path}/${folder} may import only folders listed before it: ${layer.order.slice(0, j).join(', ') || 'none'}`,
        severity: 'error',
        from: { path: `^${layer.path}/${folder}/` },
        to: { path: alt(later.map((f) => `${layer.path}/${f}`)) },
      });
    });
  });
  return rules;
}

/**
 * The domains most others build on keep the rest of their folder to themselves: other domains
 * import only their doors, so a file behind them can change, split or go without a search through
 * every group. `model.ts`, where a domain has one, holds its vocabulary and row and is the bottom of
 * its folder. The layers above domains assemble the app from routes, schemas and services and may
 * import any file.
 */
function doorRules() {
  const domains = layers.find((l) => l.groups);
  const above = layers.slice(layers.indexOf(domains) + 1).map((l) => l.path);
  return domains.groups.flatMap((group) =>
    group.domains
      .filter((domain) => domain.doors)
      .flatMap((domain) => {
        const folder = domainPath(domains, group, domain);
        const files = domain.doors.map((f) => `${f}.ts`).join(', ');
        const rules = [
          {
            name: `${domain.name}-private`,
            comment: `other domains enter ${folder} only through its doors (${files}): import from one of them. Vocabulary another domain needs (types, statuses, ids, the row and its locks) moves into model.ts; anything else is exported from a door with a comment saying why. ${above.join(', ')} assemble the app and may import any of its files`,
            severity: 'error',
            from: { path: '^src/domains/', pathNot: `^${folder}/` },
            to: { path: `^${folder}/`, pathNot: `^${folder}/(${domain.doors.join('|')})\\.ts$` },
          },
        ];
        if (domain.doors.includes('model'))
          rules.push({
            name: `${domain.name}-model-is-the-bottom`,
            comment: `${folder}/model.ts is the bottom of its folder: it imports nothing else from it, and the other files build on it`,
            severity: 'error',
            from: { path: `^${folder}/model\\.ts$` },
            to: { path: `^${folder}/`, pathNot: `^${folder}/model\\.ts$` },
          });
        return rules;
      }),
  );
}

const layeredPaths = layers.flatMap(foldersOf);

export default {
  forbidden: [
    ...upwardRules(),
    ...doorRules(),
    {
      name: 'outside-the-layers',
      comment: `every source file lives in a layer's folder (${layeredPaths.join(', ')}); add a new folder to .dependency-cruiser.mjs first`,
      severity: 'error',
      from: { path: '^(src|commands)/', pathNot: alt(layeredPaths) },
      to: {},
    },
    {
      name: 'no-circular',
      comment: 'modules may not import each other, directly or through others',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'an import names a module that does not exist',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'not-to-dev-dep',
      comment: 'the appliance runs without devDependencies: src and commands may not import them',
      severity: 'error',
      from: { path: '^(src|commands)/' },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules|test-output)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.d.ts'],
    },
  },
};
