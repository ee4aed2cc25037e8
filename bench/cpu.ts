/**
 * CPU of this process per operation, with `inFlight` operations going at once: what an API node
 * pays for each (its database's work is not counted), and the rate reached.
 */
export async function cpuPerOp(
  fn: () => Promise<unknown>,
  ops: number,
  inFlight = 50,
): Promise<{ us: number; perSecond: number }> {
  let started = 0;
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (started++ < ops) await fn();
    }),
  );
  const used = process.cpuUsage(cpu);
  return { us: (used.user + used.system) / ops, perSecond: ops / ((performance.now() - t0) / 1000) };
}
