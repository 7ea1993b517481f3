#!/usr/bin/env node
/*
 * Writes docs/event-catalogue.md from the code itself, so it stays true:
 * - every event schema exported by @fsm/contracts (a zod object `{ type: z.literal(..), data: z.object(..) }`),
 *   grouped by the stream union that contains it, with its fields;
 * - which read models (`readModelProjectors[].handles`) and which reactions
 *   (`reactions[].handles` of the workers) use it.
 *
 *   node --conditions=source --import tsx scripts/event-catalogue.mjs          # rewrite the file
 *   node --conditions=source --import tsx scripts/event-catalogue.mjs --check  # exit 1 when it is stale
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const CATALOGUE_PATH = fileURLToPath(new URL('../docs/event-catalogue.md', import.meta.url));

const def = (schema) => schema?._zod?.def;

function isEventSchema(schema) {
  const d = def(schema);
  if (d?.type !== 'object') return false;
  const type = def(d.shape.type);
  return type?.type === 'literal' && typeof type.values?.[0] === 'string' && isDataSchema(d.shape.data);
}

/** An event's data: an object, or a union of objects (one variant per kind). */
function isDataSchema(schema) {
  const d = def(schema);
  return d?.type === 'object' || (d?.type === 'union' && d.options.every((o) => def(o)?.type === 'object'));
}

function dataFields(schema) {
  const d = def(schema);
  const fieldsOf = (shape) => Object.entries(shape).map(([k, v]) => `\`${k}\`: ${describe(v)}`);
  if (d.type === 'object') return fieldsOf(d.shape).join('<br>');
  return d.options.map((o, i) => `*variant ${i + 1}:*<br>${fieldsOf(def(o).shape).join('<br>')}`).join('<br>');
}

/** A short, readable type for a zod schema. */
function describe(schema, depth = 0) {
  const d = def(schema);
  if (!d) return 'unknown';
  switch (d.type) {
    case 'string': {
      const format = schema._zod.bag?.format ?? d.format;
      return format === 'datetime' ? 'ISO date-time' : format ? `string (${format})` : 'string';
    }
    case 'number':
      return schema._zod.bag?.format?.includes('int') ? 'integer' : 'number';
    case 'int':
      return 'integer';
    case 'boolean':
      return 'boolean';
    case 'literal':
      return d.values.map((v) => JSON.stringify(v)).join(' \\| ');
    case 'enum':
      return Object.values(d.entries).map((v) => `\`${v}\``).join(' \\| ');
    case 'nullable':
      return `${describe(d.innerType, depth)} \\| null`;
    case 'optional':
      return `${describe(d.innerType, depth)} (optional)`;
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
      return describe(d.innerType, depth);
    case 'pipe':
      return describe(d.in, depth);
    case 'array':
      return `${describe(d.element, depth)}[]`;
    case 'record':
      return `record<${describe(d.keyType, depth)}, ${describe(d.valueType, depth)}>`;
    case 'union':
      return d.options.map((o) => describe(o, depth)).join(' \\| ');
    case 'object':
      if (depth >= 1) return 'object';
      return `{ ${Object.entries(d.shape)
        .map(([k, v]) => `${k}: ${describe(v, depth + 1)}`)
        .join('; ')} }`;
    default:
      return d.type;
  }
}

function unionMembers(schema) {
  const d = def(schema);
  if (d?.type !== 'union') return [];
  return d.options.flatMap((o) => (isEventSchema(o) ? [o] : unionMembers(o)));
}

export async function renderCatalogue() {
  const contracts = await import('@fsm/contracts');
  const { readModelProjectors } = await import('@fsm/projections');
  const workers = await import('@fsm/workers');
  const { reactions } = workers;
  // Reactions are named after their export: the workers index, then every workers/src/**/*reactions.ts.
  const named = Object.entries(workers);
  const workersSrc = fileURLToPath(new URL('../workers/src/', import.meta.url));
  for (const file of (await readdir(workersSrc, { recursive: true })).filter((f) => /reactions\.ts$/.test(f)).sort()) {
    named.push(...Object.entries(await import(pathToFileURL(join(workersSrc, file)).href)));
  }
  const reactionName = (r) => named.find(([, v]) => v === r)?.[0] ?? 'unnamed reaction';

  const events = new Map(); // type -> { schema, group }
  // Stream unions first (their export name names the group), then lone event schemas.
  const unions = Object.entries(contracts)
    .filter(([, v]) => unionMembers(v).length > 0)
    .sort(([a], [b]) => a.localeCompare(b));
  for (const [name, union] of unions) {
    for (const member of unionMembers(union)) {
      const type = def(def(member).shape.type).values[0];
      if (!events.has(type)) events.set(type, { schema: member, group: name });
    }
  }
  for (const [, value] of Object.entries(contracts)) {
    if (!isEventSchema(value)) continue;
    const type = def(def(value).shape.type).values[0];
    if (!events.has(type)) events.set(type, { schema: value, group: '(no stream union)' });
  }

  const readModelsOf = (type) => readModelProjectors.filter((p) => p.handles.includes(type)).map((p) => p.name);
  const reactionsOf = (type) => reactions.filter((r) => r.handles.includes(type)).map(reactionName);

  const groups = new Map();
  for (const [type, entry] of events) {
    if (!groups.has(entry.group)) groups.set(entry.group, []);
    groups.get(entry.group).push(type);
  }

  const lines = [
    '# Event catalogue',
    '',
    '<!-- Generated by scripts/event-catalogue.mjs from the zod schemas in contracts/, the',
    '     read models (projections/src/read-models/*, `handles`) and the workers reactions',
    '     (workers/src/reactions.ts). Do not edit by hand: run',
    '     `node --conditions=source --import tsx scripts/event-catalogue.mjs`. A test fails when it is stale. -->',
    '',
    'Every event is stored as `{ type, data }` plus metadata (`userId`, `userName`, `correlationId`,',
    '`causationId`) set by the store; `recordedAt` comes from the store too. Every type is **version 1**:',
    'none has been changed since it was published. A change is a new version plus an upcaster, never an edit',
    '(see [operations.md](operations.md#adding-an-event-version-with-an-upcaster)).',
    '',
    `${events.size} event types. Columns: the \`data\` fields, the read models that apply the event, the`,
    'reactions (jobs) it triggers.',
    '',
  ];
  const readModelIndex = new Map();
  for (const [groupName, types] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
    lines.push(`## \`${groupName}\``, '');
    lines.push('| event | version | data fields | read models | jobs |', '|---|---|---|---|---|');
    for (const type of types) {
      const fields = dataFields(def(events.get(type).schema).shape.data);
      const rms = readModelsOf(type);
      for (const rm of rms) readModelIndex.set(rm, [...(readModelIndex.get(rm) ?? []), type]);
      const jobs = reactionsOf(type);
      lines.push(`| \`${type}\` | 1 | ${fields || '—'} | ${rms.join(', ') || '—'} | ${jobs.join(', ') || '—'} |`);
    }
    lines.push('');
  }
  const unknown = [
    ...readModelProjectors.flatMap((p) => p.handles.filter((t) => !events.has(t)).map((t) => `read model ${p.name}: \`${t}\``)),
    ...reactions.flatMap((r) => r.handles.filter((t) => !events.has(t)).map((t) => `reaction ${reactionName(r)}: \`${t}\``)),
  ];
  lines.push('## Read models and the events they apply', '', '| read model | version | events |', '|---|---|---|');
  for (const p of readModelProjectors) lines.push(`| \`${p.name}\` | ${p.version ?? '—'} | ${p.handles.map((t) => `\`${t}\``).join(', ')} |`);
  lines.push('', '## Reactions (event → job)', '', '| reaction | events |', '|---|---|');
  for (const r of reactions) {
    lines.push(`| \`${reactionName(r)}\` | ${r.handles.map((t) => `\`${t}\``).join(', ')} |`);
  }
  if (unknown.length) lines.push('', '**Handled but not declared in contracts:** ' + unknown.join(', '));
  lines.push('');
  return lines.join('\n');
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const text = await renderCatalogue();
  if (process.argv.includes('--check')) {
    const current = await readFile(CATALOGUE_PATH, 'utf8').catch(() => '');
    if (current !== text) {
      console.error('docs/event-catalogue.md is stale: run node --conditions=source --import tsx scripts/event-catalogue.mjs');
      process.exit(1);
    }
  } else {
    await writeFile(CATALOGUE_PATH, text);
    console.log(`wrote ${CATALOGUE_PATH}`);
  }
  process.exit(0);
}
