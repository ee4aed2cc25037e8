import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ConfigError, resolveConfig } from '../../src/config/config.js';
import { configChanges } from '../../src/operator/init.js';

test('whip_url is served by the API: its scheme, host and port, or its public address behind a TLS proxy', () => {
  assert.is(
    resolveConfig('/d', { host: '203.0.113.7', api_port: 8080 }).publicUrls.whip_url,
    'http://203.0.113.7:8080/live',
  );
  assert.is(
    resolveConfig('/d', { public_urls: { base_url: 'https://api.example.com/' } }).publicUrls.whip_url,
    'https://api.example.com/live',
  );
  assert.is(
    resolveConfig('/d', { public_urls: { whip_url: 'https://ingest.example.com/live' } }).publicUrls.whip_url,
    'https://ingest.example.com/live',
  );
});

test('ICE: an IPv4 host is announced by default; the UDP range is a setting, checked', () => {
  assert.equal(resolveConfig('/d', { host: '203.0.113.7' }).whip.ice_addresses, ['203.0.113.7']);
  assert.equal(resolveConfig('/d', { host: 'media.example.com' }).whip.ice_addresses, []);
  const whip = resolveConfig('/d', {
    whip: { udp_port_min: 50000, udp_port_max: 50099, ice_addresses: ['198.51.100.2'] },
  }).whip;
  assert.equal([whip.udp_port_min, whip.udp_port_max, whip.ice_addresses], [50000, 50099, ['198.51.100.2']]);
  assert.throws(
    () => resolveConfig('/d', { whip: { udp_port_min: 50100, udp_port_max: 50000 } }),
    (e: unknown) => e instanceof ConfigError,
  );
  assert.throws(
    () => resolveConfig('/d', { whip: { ice_addresses: ['not-an-ip'] } }),
    (e: unknown) => e instanceof ConfigError,
  );
});

test('svc init: --whip-udp-ports and --ice-address set the whip settings', () => {
  assert.equal(configChanges({ 'whip-udp-ports': '41000-41099', 'ice-address': ['198.51.100.2'] }).whip, {
    udp_port_min: 41000,
    udp_port_max: 41099,
    ice_addresses: ['198.51.100.2'],
  });
  assert.is(configChanges({}).whip, undefined);
  assert.throws(() => configChanges({ 'whip-udp-ports': '41000' }));
});

test.run();
