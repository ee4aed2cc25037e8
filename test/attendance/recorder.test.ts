import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  AttendanceRecorder,
  mergeAttendance,
  type AttendanceRow,
  type AttendanceViewer,
} from '../../src/domains/audience/attendance/recorder.js';

const T0 = Date.parse('2026-11-22T12:00:00.000Z');
const at = (seconds: number) => T0 + seconds * 1000;
const ADA: AttendanceViewer = { streamId: 'str_aaaaaaaaaaaaaaaaaaaa', viewerId: 'ada', name: 'Ada' };
const BOB: AttendanceViewer = { streamId: 'str_aaaaaaaaaaaaaaaaaaaa', viewerId: 'bob', name: null };

/** Interval 30 s: a gap is credited up to 60 s. */
const recorder = (opts: { maxEntries?: number } = {}) => new AttendanceRecorder({ intervalSeconds: 30, ...opts });
const secondsOf = (rows: AttendanceRow[], viewerId: string) =>
  rows.find((r) => r.viewer_id === viewerId)?.watch_seconds;

test('a session opened is listed with 0 s; its first report credits nothing', () => {
  const r = recorder();
  r.seen(ADA, at(0));
  assert.equal(r.drain(), [
    {
      stream_id: ADA.streamId,
      viewer_id: 'ada',
      name: 'Ada',
      watch_seconds: 0,
      first_seen_at: new Date(at(0)),
      last_seen_at: new Date(at(0)),
    },
  ]);
  r.beat(ADA, 'vsn_1', 'p', at(5));
  assert.is(secondsOf(r.drain(), 'ada'), 0);
});

test('p then p credits the gap; the credit is capped at twice the interval', () => {
  const r = recorder();
  r.beat(ADA, 'vsn_1', 'p', at(0));
  r.beat(ADA, 'vsn_1', 'p', at(30));
  r.beat(ADA, 'vsn_1', 'z', at(58));
  assert.is(secondsOf(r.drain(), 'ada'), 58);
  r.beat(BOB, 'vsn_2', 'p', at(100));
  // Silent for 10 minutes, then back: only two intervals count.
  r.beat(BOB, 'vsn_2', 'p', at(700));
  const rows = r.drain();
  assert.is(secondsOf(rows, 'bob'), 60);
  assert.is(secondsOf(rows, 'ada'), undefined, 'not heard since the last drain: no row');
});

test('waiting, paused or buffering before a report credits nothing, whatever comes after', () => {
  const r = recorder();
  for (const [i, st] of (['w', 'z', 'b'] as const).entries()) {
    r.beat(ADA, `vsn_${st}`, st, at(0));
    r.beat(ADA, `vsn_${st}`, 'p', at(30 + i));
  }
  const [row] = r.drain();
  assert.is(row?.watch_seconds, 0);
  assert.equal(row?.last_seen_at, new Date(at(32)));
  assert.equal(row?.first_seen_at, new Date(at(0)));
});

test('each session is credited from its own previous report', () => {
  const r = recorder();
  r.beat(ADA, 'vsn_1', 'p', at(0));
  r.beat(ADA, 'vsn_2', 'z', at(10));
  r.beat(ADA, 'vsn_1', 'p', at(30));
  r.beat(ADA, 'vsn_2', 'p', at(40));
  assert.is(secondsOf(r.drain(), 'ada'), 30);
});

test('two sessions of one viewer playing at once (two tabs) are credited once, for the time either played', () => {
  const r = recorder();
  r.beat(ADA, 'vsn_1', 'p', at(0));
  r.beat(ADA, 'vsn_2', 'p', at(10));
  r.beat(ADA, 'vsn_1', 'p', at(30));
  r.beat(ADA, 'vsn_2', 'p', at(40));
  r.beat(ADA, 'vsn_1', 'z', at(60));
  r.beat(ADA, 'vsn_2', 'p', at(70));
  assert.is(secondsOf(r.drain(), 'ada'), 70);
  // Another viewer's sessions are not affected.
  r.beat(BOB, 'vsn_3', 'p', at(70));
  r.beat(BOB, 'vsn_3', 'p', at(100));
  assert.is(secondsOf(r.drain(), 'bob'), 30);
});

test('whole seconds are drained; the remainder is kept for the next drain', () => {
  const r = recorder();
  r.beat(ADA, 'vsn_1', 'p', at(0));
  r.beat(ADA, 'vsn_1', 'p', at(10.6));
  assert.is(secondsOf(r.drain(), 'ada'), 10);
  r.beat(ADA, 'vsn_1', 'p', at(20.0));
  // 0.6 kept + 9.4 = 10.
  assert.is(secondsOf(r.drain(), 'ada'), 10);
  r.beat(ADA, 'vsn_1', 'p', at(29.7));
  r.beat(ADA, 'vsn_1', 'p', at(30.0));
  assert.is(secondsOf(r.drain(), 'ada'), 10);
});

test('a late report moves nothing back and credits nothing', () => {
  const r = recorder();
  r.beat(ADA, 'vsn_1', 'p', at(0));
  r.beat(ADA, 'vsn_1', 'p', at(30));
  r.beat(ADA, 'vsn_1', 'p', at(20));
  r.beat(ADA, 'vsn_1', 'p', at(60));
  const [row] = r.drain();
  assert.is(row?.watch_seconds, 60);
  assert.equal(row?.last_seen_at, new Date(at(60)));
});

test('the name is the newest non-null one', () => {
  const r = recorder();
  r.seen({ ...ADA, name: 'Ada L.' }, at(0));
  r.seen({ ...ADA, name: null }, at(5));
  assert.is(r.drain()[0]?.name, 'Ada L.');
  r.seen({ ...ADA, name: 'Ada Lovelace' }, at(10));
  assert.is(r.drain()[0]?.name, 'Ada Lovelace');
});

test('memory is bounded: sessions and viewers not heard from for 5 minutes are forgotten', () => {
  const r = recorder();
  for (let i = 0; i < 1000; i++) r.beat({ ...ADA, viewerId: `v${i}` }, `vsn_${i}`, 'p', at(0));
  assert.equal(r.size, { sessions: 1000, viewers: 1000 });
  assert.is(r.drain().length, 1000);
  r.beat(BOB, 'vsn_bob', 'p', at(301));
  assert.is(r.size.sessions, 1, 'a report prunes the sessions silent for 5 minutes');
  r.drain(at(301));
  assert.equal(r.size, { sessions: 1, viewers: 1 });
  // Forgotten: a session back after 5 minutes starts over (its first report credits nothing).
  r.beat({ ...ADA, viewerId: 'v0' }, 'vsn_0', 'p', at(310));
  assert.is(secondsOf(r.drain(), 'v0'), 0);
  // Nobody reports any more: the drain forgets on its own clock.
  r.drain(at(1000));
  assert.equal(r.size, { sessions: 0, viewers: 0 });
});

test('memory is bounded by count too: the least recently heard go first, counted when they had credit', () => {
  const r = recorder({ maxEntries: 100 });
  for (let i = 0; i < 150; i++) r.beat({ ...ADA, viewerId: `v${i}` }, `vsn_${i}`, 'p', at(i / 100));
  assert.equal(r.size, { sessions: 100, viewers: 100 });
  assert.is(r.evicted, 50);
  const rows = r.drain();
  assert.equal(
    rows.map((row) => row.viewer_id),
    Array.from({ length: 100 }, (_, i) => `v${i + 50}`),
  );
});

test('merging rows of one viewer adds seconds, widens the sightings and keeps the newest name', () => {
  const row = (viewerId: string, seconds: number, first: number, last: number, name: string | null): AttendanceRow => ({
    stream_id: ADA.streamId,
    viewer_id: viewerId,
    name,
    watch_seconds: seconds,
    first_seen_at: new Date(at(first)),
    last_seen_at: new Date(at(last)),
  });
  const merged = mergeAttendance([
    row('b', 10, 20, 40, 'New'),
    row('a', 1, 0, 1, null),
    row('b', 5, 0, 10, 'Old'),
    row('b', 2, 30, 35, null),
  ]);
  assert.equal(merged, [row('a', 1, 0, 1, null), row('b', 17, 0, 40, 'New')]);
});

test.run();
