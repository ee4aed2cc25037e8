/**
 * The layers of svc, bottom to top, and the rules that keep imports pointing down.
 * `npm run check` runs dependency-cruiser with this file; `npm run docs` draws
 * docs/architecture.md's picture from `layers` and from the code. This list is the source of
 * truth: change the architecture here first.
 *
 * A module may import its own folder and anything below it, never above. Inside `platform` and
 * `domains` the folders are ordered too: a folder may import only folders listed before it.
 */
export const layers = [
  { name: 'core', path: 'src/core', what: 'errors, clock, ids, money, time, logger: no imports from svc' },
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
    what: 'one folder per capability of the spec: routes, schemas, queries, services, workers',
    order: ['accounts', 'events', 'idempotency', 'cdn', 'cdnlog', 'billing', 'streams', 'viewers', 'bans', 'moderators', 'identity', 'attendance', 'chat', 'thumbnails', 'live', 'whip', 'playback', 'recordings', 'metering', 'webhooks', 'embed', 'player', 'dashboard'],
  },
  { name: 'api', path: 'src/api', what: 'the HTTP API assembled: every domain route on one server, root routes and the reference' },
  { name: 'appliance', path: 'src/appliance', what: 'the composition root: builds every service, worker and job; starts and stops them' },
  { name: 'cli', path: 'src/cli', what: 'what the oclif commands share: base command, API client, output' },
  { name: 'commands', path: 'commands', what: 'one file per `svc` command' },
];

const alt = (paths) => `^(${paths.join('|')})/`;

function upwardRules() {
  const rules = [];
  layers.forEach((layer, i) => {
    const above = layers.slice(i + 1).map((l) => l.path);
    if (above.length) {
      rules.push({
        name: `${layer.name}-imports-upward`,
        comment: `${layer.path} may import only ${layer.name} and the layers below it (${layers.slice(0, i).map((l) => l.name).join(', ') || 'none'})`,
        severity: 'error',
        from: { path: `^${layer.path}/` },
        to: { path: alt(above) },
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

const layeredPaths = layers.flatMap((l) => (l.order ? l.order.map((f) => `${l.path}/${f}`) : [l.path]));

export default {
  forbidden: [
    ...upwardRules(),
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
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.js', '.mjs', '.cjs', '.d.ts'] },
  },
};
