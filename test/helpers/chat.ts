import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import type { TestApi } from './api.js';

export interface SseEvent {
  event: string;
  id: string | null;
  data: string;
}

/** A chat feed read over a real socket, its events parsed as they come. */
export class FeedReader {
  readonly events: SseEvent[] = [];
  status = 0;
  headers: IncomingMessage['headers'] = {};
  private buffer = '';
  private req: ClientRequest | null = null;
  closed = false;

  /** Opens `url` and resolves once the answer's head is in. */
  static open(url: string, headers: Record<string, string> = {}): Promise<FeedReader> {
    const reader = new FeedReader();
    return new Promise((resolve, reject) => {
      reader.req = request(url, { headers: { accept: 'text/event-stream', ...headers } }, (res) => {
        reader.status = res.statusCode ?? 0;
        reader.headers = res.headers;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => reader.take(chunk));
        res.on('close', () => (reader.closed = true));
        resolve(reader);
      });
      reader.req.on('error', (err) => (reader.status ? (reader.closed = true) : reject(err)));
      reader.req.end();
    });
  }

  /** The events named `event` so far. */
  named(event: string): SseEvent[] {
    return this.events.filter((e) => e.event === event);
  }

  /** Parsed data of every `message` event, in order. */
  messages(): { id: string; text: string; author: { name: string; verified: boolean; role: string } }[] {
    return this.named('message').map((e) => JSON.parse(e.data));
  }

  /** The messages a player would show now: messages after the last reset, minus deletions. */
  shown(): string[] {
    let list: { id: string; text: string }[] = [];
    for (const e of this.events) {
      if (e.event === 'reset') list = [];
      if (e.event === 'message') list.push(JSON.parse(e.data));
      if (e.event === 'delete') {
        const gone = new Set<string>(JSON.parse(e.data).message_ids);
        list = list.filter((m) => !gone.has(m.id));
      }
    }
    return list.map((m) => m.text);
  }

  lastId(): string | null {
    for (let i = this.events.length - 1; i >= 0; i--)
      if ((this.events[i] as SseEvent).id !== null) return (this.events[i] as SseEvent).id;
    return null;
  }

  /** Waits (real time) until `check` holds, or fails with what was seen. */
  async until(check: (r: FeedReader) => boolean, what: string, timeoutMs = 5000): Promise<void> {
    const end = performance.now() + timeoutMs;
    while (!check(this)) {
      if (performance.now() > end)
        throw new Error(
          `feed: ${what} not seen within ${timeoutMs} ms; events: ${JSON.stringify(this.events.slice(-10))}`,
        );
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  close(): void {
    this.req?.destroy();
    this.closed = true;
  }

  private take(chunk: string): void {
    this.buffer += chunk;
    let end: number;
    while ((end = this.buffer.indexOf('\n\n')) !== -1) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      let event = 'message';
      let id: string | null = null;
      const data: string[] = [];
      let any = false;
      for (const line of block.split('\n')) {
        if (line.startsWith(':') || line.startsWith('retry:')) continue;
        const colon = line.indexOf(':');
        const name = colon === -1 ? line : line.slice(0, colon);
        const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
        any = true;
        if (name === 'event') event = value;
        else if (name === 'id') id = value;
        else if (name === 'data') data.push(value);
      }
      if (any) this.events.push({ event, id, data: data.join('\n') });
    }
  }
}

/** Serves the test API on a loopback port and starts its chat hub; returns its base URL and the stop. */
export async function serveChat(env: TestApi): Promise<{ base: string; stop: () => Promise<void> }> {
  const stopChat = env.api.chat.start();
  const address = await env.api.app.listen({ host: '127.0.0.1', port: 0 });
  return { base: address, stop: stopChat };
}

/** An anonymous viewer's client id (8-64 of A-Z a-z 0-9 _ -). */
export const clientId = (name: string): string => `client-${name}`.padEnd(8, '0');
