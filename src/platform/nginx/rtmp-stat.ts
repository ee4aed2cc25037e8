/**
 * nginx-rtmp's `rtmp_stat all` page: which streams are being published, by which client,
 * with what video. The format is small and fixed (ngx_rtmp_stat_module.c): elements, text,
 * empty flag elements like <publishing/>, no attributes that matter. fast-xml-parser reads it;
 * this module picks what it knows and never throws, not even on a page cut short.
 *
 * Shape, per stream (test/media/fixtures/rtmp-stat.xml):
 *   rtmp > server > application{name} > live > stream{name,time,bw_in,bytes_in,...,
 *     client*{id,address,...,publishing?}, meta?{video{width,height,frame_rate,codec,
 *     profile,compat,level}, audio{codec,profile,...}}, nclients, publishing?}
 */

import { XMLParser } from 'fast-xml-parser';

export interface StatStream {
  app: string;
  name: string;
  bytesIn: number;
  /** Bits per second, nginx's 10-second average (0 for the first ~10 s); difference bytesIn for fresher rates. */
  bwIn: number;
  /** Milliseconds since the stream appeared. */
  time: number;
  /** Null until the publisher's metadata arrives (about a second after publish). */
  meta: {
    width: number | null;
    height: number | null;
    frameRate: number | null;
    videoCodec: string | null;
    profile: string | null;
    /** As nginx prints it, e.g. "3.1". */
    level: string | null;
    audioCodec: string | null;
  } | null;
  /** The client whose <client> entry carries <publishing/>. */
  publisher: { clientId: string; address: string } | null;
  /** Publisher and players. */
  nclients: number;
  /** Messages nginx dropped for the stream's players (the ladder) because they fell behind. */
  playersDropped: number;
}

/**
 * An element as fast-xml-parser gives it: a leaf is its text (trimmed, entities decoded), any
 * other element maps each child tag to the list of those children, in page order. Every tag
 * is a list (`isArray`), so one <stream> reads like several and a tag nginx repeats never
 * turns a value into an array behind our back.
 */
type XmlElement = string | { [tag: string]: unknown };

const parser = new XMLParser({
  isArray: () => true,
  // Counters stay text until numberOf; "3.0" (a level) and ids must not become numbers.
  parseTagValue: false,
  // Numeric character references (&#38;) as XML defines them; nginx itself only writes &amp; &lt; &gt; &quot;.
  htmlEntities: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  // Nothing here reads the path; building it as a string for every tag costs a third of the parse.
  jPath: false,
});

/**
 * nginx writes the page as it walks its streams, so a fetch cut short ends inside one. Only
 * the page up to the last </stream> is read: every stream in it is complete, and the parser
 * does not mind the enclosing elements left open. A page it still cannot read is garbage,
 * which has no streams, like a 502 page.
 */
function parseXml(xml: string): XmlElement | undefined {
  const end = xml.lastIndexOf('</stream>');
  if (end < 0) return undefined;
  try {
    return parser.parse(xml.slice(0, end + '</stream>'.length)) as XmlElement;
  } catch {
    return undefined;
  }
}

function children(e: XmlElement | undefined, tag: string): XmlElement[] {
  const list = typeof e === 'object' ? e[tag] : undefined;
  return Array.isArray(list) ? (list as XmlElement[]) : [];
}

const child = (e: XmlElement | undefined, tag: string) => children(e, tag)[0];

function textOf(e: XmlElement | undefined, tag: string): string | null {
  const value = child(e, tag);
  return typeof value === 'string' && value !== '' ? value : null;
}

function numberOf(e: XmlElement | undefined, tag: string): number | null {
  const value = textOf(e, tag);
  const n = value === null ? NaN : Number(value);
  return Number.isFinite(n) ? n : null;
}

function parseMeta(meta: XmlElement | undefined): StatStream['meta'] {
  if (meta === undefined) return null;
  const video = child(meta, 'video');
  const audio = child(meta, 'audio');
  return {
    width: numberOf(video, 'width'),
    height: numberOf(video, 'height'),
    frameRate: numberOf(video, 'frame_rate'),
    videoCodec: textOf(video, 'codec'),
    profile: textOf(video, 'profile'),
    level: textOf(video, 'level'),
    audioCodec: textOf(audio, 'codec'),
  };
}

function parsePublisher(stream: XmlElement): StatStream['publisher'] {
  const client = children(stream, 'client').find((c) => child(c, 'publishing') !== undefined);
  const clientId = textOf(client, 'id');
  if (!client || clientId === null) return null;
  return { clientId, address: textOf(client, 'address') ?? '' };
}

/** Every live stream on the page, in page order; a stream cut off by the end of the page is left out. */
export function parseRtmpStat(xml: string): StatStream[] {
  const streams: StatStream[] = [];
  for (const server of children(child(parseXml(xml), 'rtmp'), 'server')) {
    for (const application of children(server, 'application')) {
      const app = textOf(application, 'name') ?? '';
      for (const stream of children(child(application, 'live'), 'stream')) {
        const name = textOf(stream, 'name');
        if (name === null) continue;
        streams.push({
          app,
          name,
          bytesIn: numberOf(stream, 'bytes_in') ?? 0,
          bwIn: numberOf(stream, 'bw_in') ?? 0,
          time: numberOf(stream, 'time') ?? 0,
          meta: parseMeta(child(stream, 'meta')),
          publisher: parsePublisher(stream),
          nclients: numberOf(stream, 'nclients') ?? 0,
          playersDropped: children(stream, 'client')
            .filter((c) => child(c, 'publishing') === undefined)
            .reduce((sum, c) => sum + (numberOf(c, 'dropped') ?? 0), 0),
        });
      }
    }
  }
  return streams;
}
