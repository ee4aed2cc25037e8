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
    what: 'machinery that knows no stream: child processes, system packages, PostgreSQL, jobs, pure media logic and command lines, the HTTP kit, nginx',
    order: ['process', 'system', 'db', 'jobs', 'media', 'webrtc', 'http', 'nginx'],
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
            what: 'accounts, API keys, key authentication and its cache',
            doors: ['model', 'auth', 'service'],
          },
          { name: 'events', what: 'the events outbox that webhooks deliver' },
          { name: 'idempotency', what: '`Idempotency-Key`: a retried creation returns the first response' },
          { name: 'cdn', what: 'signed CDN addresses (checked by nginx, no API call) and the public-address refusals' },
          { name: 'cdnlog', what: 'the CDN access log reader: delivered bytes, viewer ids and countries per minute' },
          { name: 'billing', what: 'prices, the charges ledger, credit, usage and cost' },
        ],
      },
      {
        name: 'streams',
        tier: 1,
        what: 'the stream: the one domain every other group builds on',
        domains: [
          {
            name: 'streams',
            what: 'the streams API, statuses and transitions, capacity, playback tokens, the public player switch',
            doors: ['model', 'service', 'transitions'],
          },
        ],
      },
      {
        name: 'engine',
        tier: 2,
        what: "the media pipeline: what happens to a stream's video",
        domains: [
          { name: 'thumbnails', what: 'stills of live streams, captured from the ladder' },
          {
            name: 'live',
            what: 'ingest hooks, admission, the ladder worker and uploader per live stream, ingest metering, ending',
          },
          { name: 'whip', what: 'browser publishing: WHIP sessions, a WebRTC receiver relayed to RTMP' },
          { name: 'recordings', what: 'one MP4 per broadcast: remux, retention, signed downloads' },
        ],
      },
      {
        name: 'audience',
        tier: 2,
        what: 'the people watching: counts, tokens, attendance, chat',
        domains: [
          { name: 'viewers', what: 'viewer counting: beats, the live estimate, per-minute series' },
          { name: 'bans', what: 'chat bans' },
          { name: 'moderators', what: 'chat moderators and their invitation links' },
          { name: 'identity', what: "viewer keys' tokens and the sessions they open" },
          { name: 'attendance', what: 'attendance lists of members-only streams' },
          { name: 'chat', what: 'chat: posting, moderation, feeds, the hub between nodes' },
        ],
      },
      {
        name: 'back-office',
        tier: 2,
        what: 'work done after the fact, for the account holder',
        domains: [
          { name: 'metering', what: 'charging closed minutes and hours, the credit rules' },
          { name: 'webhooks', what: 'endpoints, signed deliveries, the dispatcher' },
        ],
      },
      {
        name: 'surfaces',
        tier: 3,
        what: 'what browsers open: pages put together from the groups below',
        domains: [
          { name: 'embed', what: 'the public embed read and the beats the player sends' },
          { name: 'player', what: 'the hosted player page and its assets' },
          { name: 'dashboard', what: 'the operator dashboard' },
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
