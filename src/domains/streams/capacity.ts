import type { Config } from '../../config/config.js';
import type { Profile } from './schemas.js';

/**
 * Cores a stream's ladder costs, by what it may encode: the declared resolution decides, because
 * capacity is reserved before the source is seen. A 480 stream's ladder only copies.
 */
export function streamCost(capacity: Config['capacity'], profile: Profile, maxResolution: number): number {
  const cost = capacity.streamCost;
  if (profile === 'passthrough' || maxResolution < 720) return cost.copy_only;
  return maxResolution >= 1080 ? cost.abr_1080 : cost.abr_720;
}

/** Cores the ladders may use: the machine less what the API, PostgreSQL and nginx need. */
export const ladderBudget = (capacity: Config['capacity']): number =>
  Math.max(0, capacity.cores - capacity.reservedCores);

export interface LoadRow {
  profile: Profile;
  max_resolution: number;
  count: number;
}

export function loadOf(capacity: Config['capacity'], rows: LoadRow[]): number {
  return rows.reduce((sum, r) => sum + r.count * streamCost(capacity, r.profile, r.max_resolution), 0);
}

/** How many more streams of this kind fit; what `no_capacity` and publisher refusals rest on. */
export function fits(capacity: Config['capacity'], rows: LoadRow[], profile: Profile, maxResolution: number): boolean {
  // A little tolerance: costs are fractions and 2 × 0.85 must fit in 1.7.
  return loadOf(capacity, rows) + streamCost(capacity, profile, maxResolution) <= ladderBudget(capacity) + 1e-9;
}
