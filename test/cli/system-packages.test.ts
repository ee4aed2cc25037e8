import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  MissingPackagesError,
  SYSTEM_PACKAGES,
  aptInstallCommands,
  dpkgQueryCommand,
  ensureSystemPackages,
  findMissingPackages,
  formatCommands,
  missingPackages,
  parseInstalled,
} from '../../src/platform/system/packages.js';

const t = suite('cli: system packages (pure)');

t('asks dpkg-query for name and status of each package', () => {
  const c = dpkgQueryCommand(['nginx', 'ffmpeg']);
  assert.is(c.file, 'dpkg-query');
  assert.equal(c.args, ['-W', '-f=${Package}\t${Status}\n', 'nginx', 'ffmpeg']);
});

t('only "install ok installed" counts; config-files leftovers and unknown packages do not', () => {
  const output = [
    'nginx\tinstall ok installed',
    'ffmpeg\tdeinstall ok config-files',
    'postgresql\tinstall ok half-configured',
    'libnginx-mod-rtmp:amd64\tinstall ok installed',
    'dpkg-query: no packages found matching geoip-database',
    '',
  ].join('\n');
  assert.equal([...parseInstalled(output)].sort(), ['libnginx-mod-rtmp', 'nginx']);
  assert.equal(missingPackages(SYSTEM_PACKAGES, output), [
    'libnginx-mod-http-geoip',
    'geoip-database',
    'libnginx-mod-http-js',
    'libnginx-mod-stream',
    'ffmpeg',
    'postgresql',
  ]);
});

t('nothing missing: no commands', () => {
  const output = SYSTEM_PACKAGES.map((p) => `${p}\tinstall ok installed`).join('\n');
  assert.equal(missingPackages(SYSTEM_PACKAGES, output), []);
  assert.equal(aptInstallCommands([]), []);
});

t('missing packages: apt-get update, then one non-interactive install without recommends', () => {
  const commands = aptInstallCommands(['nginx', 'ffmpeg']);
  assert.equal(
    commands.map((c) => [c.file, ...c.args]),
    [
      ['apt-get', 'update'],
      ['apt-get', 'install', '-y', '--no-install-recommends', 'nginx', 'ffmpeg'],
    ],
  );
  for (const c of commands) assert.is(c.env?.DEBIAN_FRONTEND, 'noninteractive');
});

t('the exact command for a non-root operator uses sudo', () => {
  const commands = aptInstallCommands(['libnginx-mod-rtmp']);
  assert.is(
    formatCommands(commands, true),
    'sudo apt-get update && sudo apt-get install -y --no-install-recommends libnginx-mod-rtmp',
  );
  assert.is(
    formatCommands(commands, false),
    'apt-get update && apt-get install -y --no-install-recommends libnginx-mod-rtmp',
  );
});

t("the list is the design's", () => {
  assert.equal(
    [...SYSTEM_PACKAGES],
    [
      'nginx',
      'libnginx-mod-rtmp',
      'libnginx-mod-http-geoip',
      'geoip-database',
      'libnginx-mod-http-js',
      'libnginx-mod-stream',
      'ffmpeg',
      'postgresql',
    ],
  );
});

t('against the real dpkg: an unknown package is reported missing (dpkg-query exits 1)', async () => {
  assert.equal(await findMissingPackages(['dpkg', 'svc-no-such-package']), ['svc-no-such-package']);
});

t('not root: fails with the exact command instead of installing', async () => {
  try {
    await ensureSystemPackages({ isRoot: false, required: ['dpkg', 'svc-no-such-package'] });
    assert.unreachable('should have thrown');
  } catch (err) {
    assert.instance(err, MissingPackagesError);
    const e = err as MissingPackagesError;
    assert.equal(e.missing, ['svc-no-such-package']);
    assert.is(e.command, 'sudo apt-get update && sudo apt-get install -y --no-install-recommends svc-no-such-package');
    assert.ok(e.message.includes(e.command));
  }
});

t.run();
