/**
 * Chat feed readers for the chat bench, in a process of their own (forked, commands over IPC) so
 * that thousands of sockets do not share the posters' event loop. Each reader is a raw socket
 * asking over HTTP/1.0, so nginx streams the feed unchunked and a reader that only drains
 * counts `chat_message` in the bytes; a sample parses the events and records, for each message
 * of the step being measured, now − the send time the poster put in its text (`t=<ms>`).
 */
import { connect, type Socket } from 'node:net';

export type ReaderCommand =
  /** Open `count` more readers of `path` (a random `c` is added); the first `sample` of them parse. */
  | { type: 'open'; host: string; port: number; path: string; count: number; sample: number }
  /** Count from now: messages, bytes, and the delays of messages whose text holds `tag`. */
  | { type: 'mark'; tag: string }
  /** Counts since the mark (the delays keep being recorded until `report`). */
  | { type: 'counts' }
  | { type: 'report' }
  | { type: 'close' };

export interface Opened {
  type: 'opened';
  connected: number;
  /** Answers other than 200, by `status code` (e.g. `503 chat_busy`). */
  refused: Record<string, number>;
  /** Refusals that carried a Retry-After header. */
  withRetryAfter: number;
  /** Readers that got no answer, by why (a socket error's code, `timeout`, `closed`). */
  errors: Record<string, number>;
}

export interface Counts {
  type: 'counts';
  /** Readers whose feed is open now, and those that closed since the mark. */
  open: number;
  closed: number;
  messages: number;
  bytes: number;
  /** This process's CPU (user + system µs) since the mark. */
  cpuUs: number;
}

export interface Report {
  type: 'report';
  /** Post-to-screen delays (ms) seen by the sample readers. */
  delays: number[];
  /** Sample readers with an open feed, and the tagged messages they received in all. */
  sampleOpen: number;
  sampleMessages: number;
}

const CONNECTING_AT_ONCE = 200;
const ANSWER_TIMEOUT_MS = 15_000;
const MARKER = Buffer.from('"chat_message"');

interface Reader {
  socket: Socket;
  sample: boolean;
  open: boolean;
}

const readers: Reader[] = [];
let tag = '';
let marked = { messages: 0, bytes: 0, closed: 0, cpu: process.cpuUsage() };
let delays: number[] = [];
let sampleMessages = 0;

const clientId = () => `bench-${Math.random().toString(36).slice(2, 12)}${Math.random().toString(36).slice(2, 12)}`;

/** Occurrences of MARKER in `buf`, with what the previous chunk ended on (a marker may straddle chunks). */
function countMarkers(carry: Buffer, buf: Buffer): { n: number; carry: Buffer } {
  const hay = carry.length > 0 ? Buffer.concat([carry, buf]) : buf;
  let n = 0;
  for (let at = hay.indexOf(MARKER); at !== -1; at = hay.indexOf(MARKER, at + MARKER.length)) n++;
  return { n, carry: hay.subarray(Math.max(0, hay.length - MARKER.length + 1)) };
}

/** The sample's parser: complete events from the text so far; what is left waits for more. */
function parseEvents(text: string, onMessage: (data: string) => void): string {
  let end: number;
  while ((end = text.indexOf('\n\n')) !== -1) {
    const block = text.slice(0, end);
    text = text.slice(end + 2);
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    if (event === 'message' && data.length > 0) onMessage(data.join('\n'));
  }
  return text;
}

function onSampleMessage(data: string): void {
  const { text } = JSON.parse(data) as { text?: string };
  if (tag === '' || !text?.includes(tag)) return;
  const sent = /t=(\d+)/.exec(text);
  if (!sent) return;
  delays.push(Date.now() - Number(sent[1]));
  sampleMessages++;
}

type Answer = { status: string; retryAfter: boolean } | { error: string };

/** One reader: resolves with its answer's status (and code), or why there was none. */
function openReader(cmd: Extract<ReaderCommand, { type: 'open' }>, sample: boolean): Promise<Answer> {
  return new Promise((resolve) => {
    const socket = connect({ host: cmd.host, port: cmd.port });
    const reader: Reader = { socket, sample, open: false };
    let head: Buffer = Buffer.alloc(0);
    let settled = false;
    let carry: Buffer = Buffer.alloc(0);
    let text = '';
    const settle = (answer: Answer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(answer);
    };
    const timer = setTimeout(() => {
      socket.destroy();
      settle({ error: 'timeout' });
    }, ANSWER_TIMEOUT_MS);
    const body = (chunk: Buffer) => {
      marked.bytes += chunk.length;
      if (sample) text = parseEvents(text + chunk.toString('utf8'), onSampleMessage);
      else {
        const counted = countMarkers(carry, chunk);
        marked.messages += counted.n;
        carry = counted.carry;
      }
    };
    socket.on('connect', () => {
      socket.setNoDelay(true);
      socket.write(
        `GET ${cmd.path}${cmd.path.includes('?') ? '&' : '?'}c=${clientId()} HTTP/1.0\r\nHost: ${cmd.host}:${cmd.port}\r\nAccept: text/event-stream\r\n\r\n`,
      );
    });
    socket.on('data', (chunk: Buffer) => {
      if (reader.open) return body(chunk);
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) return;
      const status = /^HTTP\/1\.\d (\d{3})/.exec(head.toString('latin1', 0, 20))?.[1] ?? '???';
      if (status === '200') {
        reader.open = true;
        readers.push(reader);
        settle({ status, retryAfter: false });
        body(head.subarray(end + 4));
      }
      // A refusal: its error code is in the JSON body, read once the answer is whole.
    });
    socket.on('error', (err: NodeJS.ErrnoException) => settle({ error: err.code ?? err.message }));
    socket.on('close', () => {
      if (reader.open) {
        reader.open = false;
        marked.closed++;
        return;
      }
      const answer = head.toString('utf8');
      const end = answer.indexOf('\r\n\r\n');
      if (end === -1) return settle({ error: 'closed' });
      const status = /^HTTP\/1\.\d (\d{3})/.exec(answer)?.[1] ?? '???';
      const code = /"code"\s*:\s*"([a-z_]+)"/.exec(answer.slice(end))?.[1];
      settle({
        status: code ? `${status} ${code}` : status,
        retryAfter: /\r\nretry-after:/i.test(answer.slice(0, end)),
      });
    });
  });
}

async function open(cmd: Extract<ReaderCommand, { type: 'open' }>): Promise<Opened> {
  const result: Opened = { type: 'opened', connected: 0, refused: {}, withRetryAfter: 0, errors: {} };
  let next = 0;
  const lane = async () => {
    while (next < cmd.count) {
      const i = next++;
      const answer = await openReader(cmd, i < cmd.sample);
      if ('error' in answer) result.errors[answer.error] = (result.errors[answer.error] ?? 0) + 1;
      else if (answer.status === '200') result.connected++;
      else {
        result.refused[answer.status] = (result.refused[answer.status] ?? 0) + 1;
        if (answer.retryAfter) result.withRetryAfter++;
      }
    }
  };
  await Promise.all(Array.from({ length: CONNECTING_AT_ONCE }, lane));
  return result;
}

process.on('message', (cmd: ReaderCommand) => {
  const reply = (msg: Opened | Counts | Report | { type: 'closed' }) => process.send?.(msg);
  switch (cmd.type) {
    case 'open':
      void open(cmd).then(reply);
      break;
    case 'mark':
      tag = cmd.tag;
      marked = { messages: 0, bytes: 0, closed: 0, cpu: process.cpuUsage() };
      delays = [];
      sampleMessages = 0;
      break;
    case 'counts': {
      const cpu = process.cpuUsage(marked.cpu);
      const open = readers.filter((r) => r.open);
      // The sample's messages are counted by its parser, the others' by the marker.
      reply({
        type: 'counts',
        open: open.length,
        closed: marked.closed,
        messages: marked.messages + sampleMessages,
        bytes: marked.bytes,
        cpuUs: cpu.user + cpu.system,
      });
      break;
    }
    case 'report':
      reply({ type: 'report', delays, sampleOpen: readers.filter((r) => r.open && r.sample).length, sampleMessages });
      break;
    case 'close':
      for (const r of readers) r.socket.destroy();
      readers.length = 0;
      reply({ type: 'closed' });
      break;
  }
});
