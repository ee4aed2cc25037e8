import type { BillingRates } from '../../../config/schema.js';
import type { Sql } from '../../../platform/db/connect.js';
import {
  ceilTo,
  floorTo,
  HOUR_MS,
  MINUTE_MS,
  periodQuantities,
  publishedSecondsBefore,
  storedByteSecondsBefore,
} from './periods.js';
import * as q from './queries.js';

/** How long after a minute ends its publishing is taken as final (hooks arrive within this). */
const INGEST_SETTLE_MS = 5_000;

export interface ChargeRun {
  ingestPeriods: number;
  deliveryRows: number;
  storagePeriods: number;
}

/**
 * Charges every closed period not charged yet: ingest per minute (a live stream up to the last
 * settled minute, an ended one to its end), delivery per minute as the CDN log reader counted it,
 * storage per hour. Each part is one transaction that writes the charges and moves its marks,
 * so a run killed anywhere is repeated by the next without charging anything twice.
 * `openUntil`: up to when publish sessions still open are known to be true. A publisher that left
 * while nobody watched (the appliance down, nginx killed) is closed later, back to when its media
 * stopped: until then, minutes after `openUntil` are not charged for an open session (null: none).
 * Omitted: open sessions are taken as true up to `now`.
 */
export async function chargeClosedPeriods(
  sql: Sql,
  rates: BillingRates,
  now: Date,
  openUntil?: Date | null,
): Promise<ChargeRun> {
  const ingestPeriods = await sql.begin(async (tx) => {
    const streams = await q.ingestToMeter(tx);
    const rows: q.NewCharge[] = [];
    const marks: { id: string; at: Date }[] = [];
    for (const s of streams) {
      const sessions = s.sessions.map((p) => ({
        start: Date.parse(p.started_at),
        end: p.ended_at === null ? null : Date.parse(p.ended_at),
      }));
      const from = s.ingest_metered_until?.getTime() ?? floorTo(s.went_live_at.getTime(), MINUTE_MS);
      const settled = now.getTime() - INGEST_SETTLE_MS;
      const open = s.sessions.some((p) => p.ended_at === null);
      const until = open && openUntil !== undefined ? Math.min(settled, openUntil?.getTime() ?? -Infinity) : settled;
      const to = s.ended_at ? ceilTo(s.ended_at.getTime(), MINUTE_MS) : floorTo(until, MINUTE_MS);
      if (to <= from) continue;
      for (const p of periodQuantities(from, to, MINUTE_MS, publishedSecondsBefore(sessions))) {
        rows.push({
          stream_id: s.id,
          account_id: s.account_id,
          item: s.profile,
          period_start: new Date(p.periodStart),
          quantity: p.quantity,
        });
      }
      marks.push({ id: s.id, at: new Date(Math.max(to, s.ended_at?.getTime() ?? 0)) });
    }
    await q.writeCharges(tx, rows, 'once', rates, now);
    await q.setMetered(tx, 'ingest_metered_until', marks);
    return rows.length;
  });

  const deliveryRows = await sql.begin(async (tx) => {
    const uncharged = await q.deliveryToCharge(tx);
    const rows = uncharged.map((d) => ({
      stream_id: d.stream_id,
      account_id: d.account_id,
      item: 'delivery' as const,
      period_start: d.minute,
      quantity: BigInt(d.bytes) - BigInt(d.charged_bytes),
    }));
    await q.writeCharges(tx, rows, 'add', rates, now);
    await q.markDeliveryCharged(tx, uncharged);
    return rows.length;
  });

  const storagePeriods = await sql.begin(async (tx) => {
    const recordings = await q.storageToMeter(tx);
    const rows: q.NewCharge[] = [];
    const marks: { id: string; at: Date }[] = [];
    for (const r of recordings) {
      const life = { start: r.recording_ready_at.getTime(), end: r.recording_deleted_at?.getTime() ?? null };
      const from = r.storage_metered_until?.getTime() ?? floorTo(life.start, HOUR_MS);
      const to = life.end === null ? floorTo(now.getTime(), HOUR_MS) : ceilTo(life.end, HOUR_MS);
      if (to <= from) continue;
      const bytes = Number(r.recording_bytes ?? 0);
      for (const p of periodQuantities(from, to, HOUR_MS, storedByteSecondsBefore(bytes, life))) {
        rows.push({
          stream_id: r.id,
          account_id: r.account_id,
          item: 'storage',
          period_start: new Date(p.periodStart),
          quantity: p.quantity,
        });
      }
      marks.push({ id: r.id, at: new Date(Math.max(to, life.end ?? 0)) });
    }
    await q.writeCharges(tx, rows, 'once', rates, now);
    await q.setMetered(tx, 'storage_metered_until', marks);
    return rows.length;
  });

  return { ingestPeriods, deliveryRows, storagePeriods };
}
