import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { renderServiceUnit } from '../../src/operator/service-unit.js';
import { BIN, makeDataDir, svc } from '../helpers/cli.js';

const GOLDEN = fileURLToPath(new URL('./fixtures/svc.service', import.meta.url));

test('renderServiceUnit: the unit is the golden file, byte for byte', () => {
  const text = renderServiceUnit({
    node: '/usr/bin/node',
    bin: '/usr/lib/node_modules/svc/bin/run.js',
    dataDir: '/var/lib/svc',
  });
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(GOLDEN, text);
  assert.fixture(
    text,
    readFileSync(GOLDEN, 'utf8'),
    'the rendered unit differs from test/cli/fixtures/svc.service; if meant, refresh it: UPDATE_GOLDEN=1 npm test -- cli/service-unit',
  );
  assert.match(text, /^Restart=always$/m);
  assert.match(
    text,
    /^ExecStart=\/usr\/bin\/node \/usr\/lib\/node_modules\/svc\/bin\/run\.js up --data-dir \/var\/lib\/svc$/m,
  );
});

test('renderServiceUnit: paths systemd would misread are refused', () => {
  for (const dataDir of ['/srv/my svc', 'relative/dir', '/srv/100%', '/srv/$HOME']) {
    assert.throws(
      () => renderServiceUnit({ node: '/usr/bin/node', bin: '/opt/svc/bin/run.js', dataDir }),
      /absolute path without spaces/,
      dataDir,
    );
  }
});

test('systemd-analyze verify accepts the unit rendered for this machine', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-unit-'));
  try {
    const unit = join(dir, 'svc.service');
    writeFileSync(unit, renderServiceUnit({ node: process.execPath, bin: BIN, dataDir: dir }));
    const res = await execa('systemd-analyze', ['verify', unit], { reject: false });
    // Outside a booted systemd it may only warn that it cannot talk to the manager; the unit itself must raise nothing.
    const about = String(res.stderr)
      .split('\n')
      .filter((l) => l.includes('svc.service'));
    assert.equal(about, [], String(res.stderr));
    assert.is(res.exitCode, 0, String(res.stderr));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('svc service install writes the unit; without a running systemd it enables nothing and says so', async () => {
  const { dir, remove } = makeDataDir();
  try {
    const res = await svc(['service', 'install', '--unit-dir', join(dir, 'units'), '--data-dir', dir, '--json']);
    assert.is(res.code, 0, res.stderr);
    assert.equal(res.json, {
      unit_file: join(dir, 'units', 'svc.service'),
      data_dir: dir,
      systemd_running: false,
      enabled: false,
      started: false,
    });
    assert.is(
      readFileSync(join(dir, 'units', 'svc.service'), 'utf8'),
      renderServiceUnit({ node: process.execPath, bin: BIN, dataDir: dir }),
    );
  } finally {
    remove();
  }
});

test.run();
