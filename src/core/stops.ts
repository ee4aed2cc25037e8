import type { Logger } from './logger.js';

/** A part started by a composition root, and how to stop it. */
export interface Stop {
  part: string;
  stop: () => Promise<unknown>;
}

/**
 * The stop of a composition root: each start pushes its stop onto `stops`; this runs them in
 * reverse order, each one even when another failed (logged). A second call finds nothing left.
 */
export const stopInReverse = (stops: Stop[], logger: Logger) => async (): Promise<void> => {
  for (const { part, stop } of stops.splice(0).reverse()) {
    try {
      logger.debug({ part }, 'stopping');
      await stop();
    } catch (err) {
      logger.error({ err }, 'error while stopping');
    }
  }
};
