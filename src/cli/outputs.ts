import { Args, Flags } from '@oclif/core';
import { streamPath } from './streams.js';
import type { Column } from './table.js';

export const outputArg = Args.string({ description: 'Output id (out_...).', required: true });

/** The API path of a stream's outputs, or of one of them. */
export const outputsPath = (stream: string, id?: string): string =>
  id === undefined ? streamPath(stream, 'outputs') : streamPath(stream, 'outputs', encodeURIComponent(id));

/** The fields of the API's StreamOutput the CLI shows; the rest is in --json. */
export interface OutputDoc {
  id: string;
  stream_id: string;
  name: string | null;
  url: string;
  stream_key: string | null;
  enabled: boolean;
  status: string;
  last_error: string | null;
  connected_at: string | null;
  bytes_sent: number;
  created_at: string;
  updated_at: string;
  [key: string]: unknown;
}

export interface OutputListDoc {
  object: 'list';
  data: OutputDoc[];
  has_more: boolean;
}

export const OUTPUT_KEYS = [
  'id',
  'stream_id',
  'name',
  'url',
  'stream_key',
  'enabled',
  'status',
  'last_error',
  'connected_at',
  'bytes_sent',
  'created_at',
  'updated_at',
];

export const OUTPUT_COLUMNS: Column<OutputDoc>[] = [
  { header: 'id', get: (o) => o.id },
  { header: 'name', get: (o) => o.name },
  { header: 'enabled', get: (o) => o.enabled },
  { header: 'status', get: (o) => o.status },
  { header: 'bytes_sent', get: (o) => o.bytes_sent },
  { header: 'url', get: (o) => o.url },
];

/** The key flag: also read from SVC_OUTPUT_STREAM_KEY, so it need not appear in the process list or shell history. */
export const streamKeyFlag = (summary: string) => Flags.string({ summary, env: 'SVC_OUTPUT_STREAM_KEY' });
