export const iso = (date: Date | null | undefined): string | null => (date ? date.toISOString() : null);

export const addSeconds = (date: Date, seconds: number): Date => new Date(date.getTime() + seconds * 1000);

/** Whole seconds from `from` until `to`, never negative. */
export const secondsUntil = (to: Date, from: Date): number =>
  Math.max(0, Math.ceil((to.getTime() - from.getTime()) / 1000));
