import { createSocket } from 'node:dgram';
import { readFileSync } from 'node:fs';

const bindable = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = createSocket('udp4');
    socket.once('error', () => resolve(false));
    socket.bind(port, '127.0.0.1', () => socket.close(() => resolve(true)));
  });

/**
 * `count` loopback UDP ports, each with the port above it free too (RTP, then RTCP), from the
 * kernel's ephemeral range. Checked by binding, then released for the relay to take: on loopback
 * nothing else races for them in the milliseconds between.
 */
export async function freeRtpPorts(count: number): Promise<number[]> {
  const ports: number[] = [];
  for (let tries = 0; ports.length < count && tries < 200; tries++) {
    const port = 20000 + 2 * Math.floor(Math.random() * 5000);
    if (ports.includes(port)) continue;
    if ((await bindable(port)) && (await bindable(port + 1))) ports.push(port);
  }
  if (ports.length < count) throw new Error('no free loopback UDP ports for the relay');
  return ports;
}

/**
 * Whether some process has bound this UDP port (read from /proc, so that asking takes no port
 * from the process about to bind it).
 */
export function udpPortBound(port: number): boolean {
  const hex = `:${port.toString(16).toUpperCase().padStart(4, '0')} `;
  return ['/proc/net/udp', '/proc/net/udp6'].some((file) => {
    try {
      return readFileSync(file, 'utf8')
        .split('\n')
        .some((line) => line.trim().split(/\s+/)[1]?.endsWith(hex.trim()) ?? false);
    } catch {
      return false;
    }
  });
}
