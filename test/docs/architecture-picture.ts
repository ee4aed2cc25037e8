/**
 * docs/architecture.md's layer table and dependency picture, generated from the rules in
 * `.dependency-cruiser.mjs` and the imports in the code (`npm run docs` writes them; the docs
 * test fails when the committed ones fall behind).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import { packageRoot } from '../../src/core/package-root.js';

interface Layer {
  name: string;
  path: string;
  what: string;
  order?: string[];
}

const BEGIN = '<!-- generated from .dependency-cruiser.mjs by `npm run docs`: do not edit by hand -->';
const END = '<!-- end of generated part -->';
/** Everything may use these two; drawing their edges would hide the others. */
const LEFT_OUT = ['src/core', 'src/config'];

const ruleFile = join(packageRoot, '.dependency-cruiser.mjs');

async function loadRules(): Promise<{ layers: Layer[]; options: Record<string, unknown> }> {
  const mod = (await import(pathToFileURL(ruleFile).href)) as { layers: Layer[]; default: { options: Record<string, unknown> } };
  return { layers: mod.layers, options: mod.default.options };
}

/** The folders of each layer, as dependency-cruiser collapses modules to them. */
const foldersOf = (layer: Layer): string[] => (layer.order ? layer.order.map((f) => `${layer.path}/${f}`) : [layer.path]);
const nodeId = (folder: string): string => folder.replace(/[^A-Za-z0-9]/g, '_');
const label = (folder: string): string => folder.split('/').at(-1) as string;

/** Folder → folders it imports, from the code. */
async function folderEdges(layers: Layer[], options: Record<string, unknown>): Promise<Map<string, Set<string>>> {
  const folders = layers.flatMap(foldersOf);
  const collapse = `^(${folders.map((f) => f.replace(/[.]/g, '\\.')).join('|')})/`;
  const result = await cruise(['src', 'commands'], { ...options, includeOnly: '^(src|commands)/', collapse, outputType: 'json' }, undefined, { tsConfig: { fileName: join(packageRoot, 'tsconfig.json') } });
  const output = (typeof result.output === 'string' ? JSON.parse(result.output) : result.output) as ICruiseResult;
  const edges = new Map<string, Set<string>>();
  const strip = (p: string) => p.replace(/\/$/, '');
  for (const module of output.modules) {
    const from = strip(module.source);
    if (LEFT_OUT.includes(from)) continue;
    for (const dep of module.dependencies) {
      const to = strip(dep.resolved);
      if (to === from || LEFT_OUT.includes(to) || !folders.includes(to)) continue;
      if (!edges.has(from)) edges.set(from, new Set());
      edges.get(from)?.add(to);
    }
  }
  return edges;
}

function layerTable(layers: Layer[]): string {
  const rows = [...layers].reverse().map((l) => {
    const folders = l.order ? l.order.map((f) => `\`${f}\``).join(' → ') : '';
    return `| \`${l.path}/\` | ${folders} | ${l.what} |`;
  });
  return ['| Layer (top to bottom) | Folders, in the order they may import each other | What lives there |', '|---|---|---|', ...rows].join('\n');
}

function picture(layers: Layer[], edges: Map<string, Set<string>>): string {
  const lines = ['```mermaid', 'flowchart TB'];
  for (const layer of [...layers].reverse()) {
    if (LEFT_OUT.includes(layer.path)) continue;
    if (!layer.order) {
      lines.push(`  ${nodeId(layer.path)}["${layer.path}"]`);
      continue;
    }
    lines.push(`  subgraph ${nodeId(layer.path)}_layer["${layer.path}"]`, '    direction LR');
    for (const folder of [...foldersOf(layer)].reverse()) lines.push(`    ${nodeId(folder)}["${label(folder)}"]`);
    lines.push('  end');
  }
  const order = layers.flatMap(foldersOf);
  const sorted = [...edges].sort(([a], [b]) => order.indexOf(b) - order.indexOf(a));
  for (const [from, tos] of sorted) {
    for (const to of [...tos].sort((a, b) => order.indexOf(b) - order.indexOf(a))) lines.push(`  ${nodeId(from)} --> ${nodeId(to)}`);
  }
  lines.push('```');
  return lines.join('\n');
}

/** The generated part of docs/architecture.md, markers included. */
export async function architectureSection(): Promise<string> {
  const { layers, options } = await loadRules();
  const edges = await folderEdges(layers, options);
  return [
    BEGIN,
    layerTable(layers),
    '',
    `Who imports whom, folder by folder, as the code stands (an arrow points at what is imported; \`${LEFT_OUT.join('` and `')}\`, which every layer may use, are left out):`,
    '',
    picture(layers, edges),
    END,
  ].join('\n');
}

const docFile = join(packageRoot, 'docs', 'architecture.md');

/** docs/architecture.md with its generated part replaced by `section`. */
export function withSection(doc: string, section: string): string {
  const begin = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  if (begin < 0 || end < begin) throw new Error(`docs/architecture.md has no generated part: put the two markers in it (${BEGIN} … ${END})`);
  return doc.slice(0, begin) + section + doc.slice(end + END.length);
}

export const architectureDoc = (): string => readFileSync(docFile, 'utf8');

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  writeFileSync(docFile, withSection(architectureDoc(), await architectureSection()));
  console.log('wrote docs/architecture.md (layers and dependency picture)');
}
