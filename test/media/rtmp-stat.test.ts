import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseRtmpStat } from '../../src/platform/nginx/rtmp-stat.js';

// Real pages from nginx 1.22.1 + libnginx-mod-rtmp (nginx_rtmp_version 1.1.4) on Debian 12.
const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const LIVE = fixture('rtmp-stat.xml');

test('parseRtmpStat: two publishers, one with a player attached and audio, one video only', () => {
  assert.equal(parseRtmpStat(LIVE), [
    {
      app: 'live',
      name: 'str_abc',
      bytesIn: 3961474,
      bwIn: 2585656,
      time: 12585,
      meta: {
        width: 1280,
        height: 720,
        frameRate: 30,
        videoCodec: 'H264',
        profile: 'High',
        level: '3.1',
        audioCodec: 'AAC',
      },
      publisher: { clientId: '4', address: '127.0.0.1' },
      nclients: 2,
      playersDropped: 0,
    },
    {
      app: 'live',
      name: 'str_noaudio',
      bytesIn: 1187393,
      bwIn: 773800,
      time: 12601,
      meta: {
        width: 640,
        height: 360,
        frameRate: 25,
        videoCodec: 'H264',
        profile: 'Main',
        level: '3.0',
        audioCodec: null,
      },
      publisher: { clientId: '3', address: '127.0.0.1' },
      nclients: 1,
      playersDropped: 0,
    },
  ]);
});

test('parseRtmpStat: a publisher whose metadata has not arrived yet has meta null and zero counters', () => {
  const early = parseRtmpStat(fixture('rtmp-stat-no-meta.xml')).find((s) => s.name === 'str_early');
  assert.equal(early, {
    app: 'live',
    name: 'str_early',
    bytesIn: 0,
    bwIn: 0,
    time: 223,
    meta: null,
    publisher: { clientId: '8', address: '127.0.0.1' },
    nclients: 1,
    playersDropped: 0,
  });
});

test('parseRtmpStat: no publisher, empty and garbage pages give no streams', () => {
  assert.equal(parseRtmpStat(fixture('rtmp-stat-idle.xml')), []);
  assert.equal(parseRtmpStat(''), []);
  assert.equal(parseRtmpStat('<html><body>502 Bad Gateway</body></html>'), []);
});

test('parseRtmpStat: a stream without a publishing client (players only) has publisher null', () => {
  const xml = LIVE.replace(
    '<flashver>FMLE/3.0 (compatible; Lavf59.27</flashver><dropped>0</dropped><avsync>-8</avsync><timestamp>12000</timestamp><publishing/>',
    '',
  );
  assert.ok(xml !== LIVE, 'fixture edited');
  assert.is(parseRtmpStat(xml)[0]?.publisher, null);
});

test('parseRtmpStat: a page cut short never throws and drops the unfinished stream', () => {
  const full = parseRtmpStat(LIVE);
  for (let cut = 0; cut <= LIVE.length; cut += 7) {
    const streams = parseRtmpStat(LIVE.slice(0, cut));
    assert.equal(streams, full.slice(0, streams.length), `cut at ${cut}`);
  }
  const cutInSecond = LIVE.slice(0, LIVE.indexOf('<name>str_noaudio</name>') + 30);
  assert.equal(
    parseRtmpStat(cutInSecond).map((s) => s.name),
    ['str_abc'],
  );
});

test('parseRtmpStat: several applications, entities, comments and whitespace', () => {
  const xml = `<?xml version="1.0"?>
<rtmp><!-- note --><server>
  <application><name>other</name><live><stream><name>a&amp;b</name><time>5</time><nclients>0</nclients></stream></live></application>
  <application><name>live</name><live>
    <stream> <name> str_x </name> <bytes_in>10</bytes_in>
      <client><id>1</id><address>10.0.0.9</address><active/></client>
      <client><id>2</id><address>192.0.2.7</address><publishing/></client>
      <nclients>2</nclients><publishing/></stream>
  </live></application></server></rtmp>`;
  assert.equal(parseRtmpStat(xml), [
    {
      app: 'other',
      name: 'a&b',
      bytesIn: 0,
      bwIn: 0,
      time: 5,
      meta: null,
      publisher: null,
      nclients: 0,
      playersDropped: 0,
    },
    {
      app: 'live',
      name: 'str_x',
      bytesIn: 10,
      bwIn: 0,
      time: 0,
      meta: null,
      publisher: { clientId: '2', address: '192.0.2.7' },
      nclients: 2,
      playersDropped: 0,
    },
  ]);
});

test('parseRtmpStat: a lone stream with a lone client reads like several; ids and levels stay text', () => {
  const xml = `<rtmp><server><application><name>live</name><live><stream><name>str_1</name><time>0012</time>
    <client><id>07</id><address>2001:db8::1</address><publishing/></client>
    <meta><video><width>1920</width><level>4.0</level></video></meta></stream></live></application></server></rtmp>`;
  assert.equal(parseRtmpStat(xml), [
    {
      app: 'live',
      name: 'str_1',
      bytesIn: 0,
      bwIn: 0,
      time: 12,
      meta: {
        width: 1920,
        height: null,
        frameRate: null,
        videoCodec: null,
        profile: null,
        level: '4.0',
        audioCodec: null,
      },
      publisher: { clientId: '07', address: '2001:db8::1' },
      nclients: 0,
      playersDropped: 0,
    },
  ]);
});

test('parseRtmpStat: numeric character references are decoded; an empty <meta/> is metadata with nothing known', () => {
  const xml =
    '<rtmp><server><application><name>live</name><live><stream><name>a&#38;b&#x26;c</name><meta/></stream></live></application></server></rtmp>';
  const [stream] = parseRtmpStat(xml);
  assert.is(stream?.name, 'a&b&c');
  assert.equal(stream?.meta, {
    width: null,
    height: null,
    frameRate: null,
    videoCodec: null,
    profile: null,
    level: null,
    audioCodec: null,
  });
});

test('parseRtmpStat: what nginx dropped for the players (the ladder) is summed; the publisher is not a player', () => {
  const behind = LIVE.replace(
    '<flashver>LNX 9,0,124,2</flashver><dropped>0</dropped>',
    '<flashver>LNX 9,0,124,2</flashver><dropped>7</dropped>',
  );
  assert.is(parseRtmpStat(behind).find((s) => s.name === 'str_abc')?.playersDropped, 7);
  const publisherDrops = LIVE.replace(
    '<flashver>FMLE/3.0 (compatible; Lavf59.27</flashver><dropped>0</dropped><avsync>-8</avsync>',
    '<flashver>FMLE/3.0 (compatible; Lavf59.27</flashver><dropped>5</dropped><avsync>-8</avsync>',
  );
  assert.is(parseRtmpStat(publisherDrops).find((s) => s.name === 'str_abc')?.playersDropped, 0);
});

test.run();
