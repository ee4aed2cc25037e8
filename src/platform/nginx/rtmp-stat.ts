/**
 * nginx-rtmp's `rtmp_stat all` page: which streams are being published, by which client,
 * with what video. The format is small and fixed (ngx_rtmp_stat_module.c): elements, text,
 * empty flag elements like <publishing/>, no attributes that matter. A tiny tree builder is
 * enough; it skips what it does not know and never throws on a page cut short.
 *
 * Shape, per stream (test/media/fixtures/rtmp-stat.xml):
 *   rtmp > server > application{name} > live > stream{name,time,bw_in,bytes_in,...,
 *     client*{id,address,...,publishing?}, meta?{video{width,height,frame_rate,codec,
 *     profile,compat,level}, audio{codec,profile,...}}, nclients, publishing?}
 */

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

interface XmlElement {
  tag: string;
  children: XmlElement[];
  text: string;
  /** Its end tag was seen (or it was self-closing): a page cut short leaves this false. */
  closed: boolean;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return Number.isFinite(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[body.toLowerCase()] ?? whole;
  });
}

/**
 * Elements and their text; declarations, comments and attributes are skipped. A closing tag
 * closes up to its matching open element; a stray one is ignored. A `<` that starts no tag
 * means the page was cut mid-tag: parsing stops there, and elements left open stay unclosed.
 */
function parseXml(xml: string): XmlElement {
  const root: XmlElement = { tag: '#root', children: [], text: '', closed: false };
  const stack: XmlElement[] = [root];
  const token = /<!--[\s\S]*?-->|<[?!][^>]*>|<(\/?)([A-Za-z_][\w.:-]*)[^<>]*?(\/?)>|([^<]+)|(<)/g;
  for (let m = token.exec(xml); m !== null; m = token.exec(xml)) {
    const [, closing, tag, selfClosing, content, broken] = m;
    const top = stack[stack.length - 1] as XmlElement;
    if (broken !== undefined) break;
    if (content !== undefined) {
      top.text += decodeEntities(content);
    } else if (tag === undefined) {
      continue;
    } else if (closing) {
      const at = stack.map((e) => e.tag).lastIndexOf(tag);
      if (at > 0) {
        for (const open of stack.slice(at)) open.closed = true;
        stack.length = at;
      }
    } else {
      const element: XmlElement = { tag, children: [], text: '', closed: Boolean(selfClosing) };
      top.children.push(element);
      if (!selfClosing) stack.push(element);
    }
  }
  return root;
}

const children = (e: XmlElement | undefined, tag: string) => e?.children.filter((c) => c.tag === tag) ?? [];
const child = (e: XmlElement | undefined, tag: string) => e?.children.find((c) => c.tag === tag);

function textOf(e: XmlElement | undefined, tag: string): string | null {
  const value = child(e, tag)?.text.trim();
  return value ? value : null;
}

function numberOf(e: XmlElement | undefined, tag: string): number | null {
  const value = textOf(e, tag);
  const n = value === null ? NaN : Number(value);
  return Number.isFinite(n) ? n : null;
}

function parseMeta(meta: XmlElement | undefined): StatStream['meta'] {
  if (!meta) return null;
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
        if (name === null || !stream.closed) continue;
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
