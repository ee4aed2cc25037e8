/**
 * docs/architecture.md's layer table, group picture and source-layout table, generated from the
 * rules in `.dependency-cruiser.mjs` and the imports in the code (`npm run docs` writes them; the
 * docs test fails when the committed ones fall behind).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import { packageRoot } from '../../src/core/package-root.js';

interface Domain {
  name: string;
  what: string;
  /** The only files other domains may import (without `.ts`). */
  doors?: string[];
}
interface Group {
  name: string;
  tier: number;
  what: string;
  domains: Domain[];
}
interface Layer {
  name: string;
  path: string;
  what: string;
  order?: string[];
  groups?: Group[];
}
interface Rules {
  layers: Layer[];
  groupPath: (layer: Layer, group: Group) => string;
  domainPath: (layer: Layer, group: Group, domain: Domain) => string;
  options: Record<string, unknown>;
}

const BEGIN = '<!-- generated from .dependency-cruiser.mjs by `npm run docs`: do not edit by hand -->';
const END = '<!-- end of generated part -->';
/** Everything may use these two; drawing their edges would hide the others. */
const LEFT_OUT = ['src/core', 'src/config'];

const ruleFile = join(packageRoot, '.dependency-cruiser.mjs');

async function loadRules(): Promise<Rules> {
  const mod = (await import(pathToFileURL(ruleFile).href)) as Omit<Rules, 'options'> & { default: { options: Record<string, unknown> } };
  return { layers: mod.layers, groupPath: mod.groupPath, domainPath: mod.domainPath, options: mod.default.options };
}

/** The boxes of the picture: one per layer, one per group of `domains`. */
function boxesOf(rules: Rules, layer: Layer): string[] {
  return layer.groups ? layer.groups.map((g) => rules.groupPath(layer, g)) : [layer.path];
}
const nodeId = (folder: string): string => folder.replace(/[^A-Za-z0-9]/g, '_');

/** Box → boxes it imports, from the code. */
async function boxEdges(rules: Rules): Promise<Map<string, Set<string>>> {
  const boxes = rules.layers.flatMap((l) => boxesOf(rules, l));
  const collapse = `^(${boxes.map((f) => f.replace(/[.]/g, '\\.')).join('|')})/`;
  const result = await cruise(['src', 'commands'], { ...rules.options, includeOnly: '^(src|commands)/', collapse, outputType: 'json' }, undefined, { tsConfig: { fileName: join(packageRoot, 'tsconfig.json') } });
  const output = (typeof result.output === 'string' ? JSON.parse(result.output) : result.output) as ICruiseResult;
  const edges = new Map<string, Set<string>>();
  const strip = (p: string) => p.replace(/\/$/, '');
  for (const module of output.modules) {
    const from = strip(module.source);
    if (LEFT_OUT.includes(from)) continue;
    for (const dep of module.dependencies) {
      const to = strip(dep.resolved);
      if (to === from || LEFT_OUT.includes(to) || !boxes.includes(to)) continue;
      if (!edges.has(from)) edges.set(from, new Set());
      edges.get(from)?.add(to);
    }
  }
  return edges;
}

function tiersOf(groups: Group[]): Group[][] {
  const tiers = [...new Set(groups.map((g) => g.tier))].sort((a, b) => a - b);
  return tiers.map((t) => groups.filter((g) => g.tier === t));
}

function layerTable(layers: Layer[]): string {
  const rows = [...layers].reverse().map((l) => {
    const inside = l.order
      ? l.order.map((f) => `\`${f}\``).join(' → ')
      : l.groups
        ? tiersOf(l.groups).map((tier) => tier.map((g) => `\`${g.name}\``).join(' \\| ')).join(' → ')
        : '';
    return `| \`${l.path}/\` | ${inside} | ${l.what} |`;
  });
  return [
    '| Layer (top to bottom) | Folders, in the order they may import each other (`\\|`: siblings, which may not) | What lives there |',
    '|---|---|---|',
    ...rows,
  ].join('\n');
}

/** Where other domains may enter a domain, when it says (`.dependency-cruiser.mjs`'s door rules). */
const doorsOf = (d: Domain): string => (d.doors ? `; other domains import only ${d.doors.map((f) => `\`${f}.ts\``).join(', ')}` : '');

function layoutTable(rules: Rules, layer: Layer): string {
  const rows = [...(layer.groups ?? [])].reverse().flatMap((g) =>
    g.domains.map((d, i) => `| ${i === 0 ? `**${g.name}**: ${g.what}` : ''} | \`${rules.domainPath(layer, g, d).replace(/^src\//, '')}/\` | ${d.what}${doorsOf(d)} |`),
  );
  return ['| Group (top to bottom) | Domain folder | What it does |', '|---|---|---|', ...rows].join('\n');
}

function picture(rules: Rules, edges: Map<string, Set<string>>): string {
  const lines = ['```mermaid', 'flowchart TB'];
  for (const layer of [...rules.layers].reverse()) {
    if (LEFT_OUT.includes(layer.path)) continue;
    if (!layer.groups) {
      lines.push(`  ${nodeId(layer.path)}["${layer.path}"]`);
      continue;
    }
    lines.push(`  subgraph ${nodeId(layer.path)}_layer["${layer.path}"]`, '    direction TB');
    for (const tier of tiersOf(layer.groups).reverse()) {
      const names = tier.map((g) => `    ${nodeId(rules.groupPath(layer, g))}["${g.name}"]`);
      if (tier.length === 1) lines.push(...names);
      else lines.push(`    subgraph ${nodeId(layer.path)}_tier${tier[0]?.tier}["siblings"]`, '      direction LR', ...names.map((n) => `  ${n}`), '    end');
    }
    lines.push('  end');
  }
  const order = rules.layers.flatMap((l) => boxesOf(rules, l));
  const sorted = [...edges].sort(([a], [b]) => order.indexOf(b) - order.indexOf(a));
  for (const [from, tos] of sorted) {
    for (const to of [...tos].sort((a, b) => order.indexOf(b) - order.indexOf(a))) lines.push(`  ${nodeId(from)} --> ${nodeId(to)}`);
  }
  lines.push('```');
  return lines.join('\n');
}

/** The generated part of docs/architecture.md, markers included. */
export async function architectureSection(): Promise<string> {
  const rules = await loadRules();
  const edges = await boxEdges(rules);
  const domains = rules.layers.find((l) => l.groups);
  return [
    BEGIN,
    layerTable(rules.layers),
    '',
    `Who imports whom, layer by layer and group by group, as the code stands (an arrow points at what is imported; \`${LEFT_OUT.join('` and `')}\`, which every layer may use, are left out):`,
    '',
    picture(rules, edges),
    '',
    'The source layout of `src/domains/`, one line per domain:',
    '',
    domains ? layoutTable(rules, domains) : '',
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
  console.log('wrote docs/architecture.md (layers, group picture and source layout)');
}
