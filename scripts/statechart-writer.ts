/**
 * Writes each machine for people (issue 12): a Markdown page with a paragraph on what the flow is for,
 * a table of its states (in product words, with the screen or URL and the effects on entry/exit and
 * the calls it makes) and a table of its transitions, then a Mermaid `stateDiagram-v2` whose boxes
 * carry the product words and effects, nested states drawn inside their parent.
 *
 * Where the words come from (all in the machine file, so they change with the code):
 * - the machine's `description` is the paragraph; its `meta.title` the page title; `meta.events`
 *   names each event in plain words ('The person submits the code');
 * - a state's `description` ('Waiting for the code') and `meta.screen` ('/register/verify');
 * - a transition's `description` ('Code accepted').
 * Effects are the machine's actions that are not bookkeeping (`assign…`, `forget…`, …): navigation,
 * toasts, session hand-over, cache refreshes. Static params are shown ('go to /subscription').
 */
import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition } from 'xstate';

export interface MachineMeta {
  title?: string;
  events?: Record<string, string>;
  /** The file the machine is written in, when it is not `src/machines/<name>/<name>.machine.ts` (the server's models). */
  source?: string;
}

export interface StateRow {
  /** Dotted path ('verify.form.rejected'); the machine's own id for the root. */
  path: string;
  /** Mermaid id. */
  id: string;
  depth: number;
  words: string;
  screen: string | null;
  effects: string[];
  calls: string[];
  final: boolean;
}

export interface TransitionRow {
  from: string;
  to: string;
  when: string;
  event: string;
  guard: string | null;
  effects: string[];
}

/** Actions that only keep the machine's own notes (context); a reviewer does not need them drawn. */
const BOOKKEEPING = /^(assign|forget|clear|restart|restore|show)/;

/** Words for the effects every flow shares; the view binds them (src/machines/shared.ts). */
const EFFECT_WORDS: Record<string, (params: Record<string, unknown> | null) => string> = {
  goTo: (p) => (p && typeof p.path === 'string' ? `go to ${p.path}` : 'go to the next address'),
  goToSubscription: () => 'go to /subscription',
  // A message is a catalog message (a function, called here in English) or the server's words.
  notify: (p) => (p && typeof p.message === 'function' ? `toast “${(p.message as (i?: object, o?: { locale: string }) => string)({}, { locale: 'en' })}”` : p && typeof p.message === 'string' ? `toast “${p.message}”` : p && typeof p.kind === 'string' ? `${p.kind} toast` : 'toast'),
  startSession: () => 'sign the viewer in',
  persistSession: () => 'remember the session',
  profileSaved: () => 'refresh the profile',
  photoSaved: () => 'refresh the photo',
  subscriptionChanged: () => 'refresh the subscription',
};

export function words(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[._-]+/g, ' ')
    .toLowerCase()
    .trim();
}

function nodePath(node: AnyStateNode): string {
  return node.path.length ? node.path.join('.') : node.machine.id;
}

function nodeId(node: AnyStateNode): string {
  return node.path.length ? node.path.join('_') : node.machine.id;
}

function metaOf(machine: AnyStateMachine): MachineMeta {
  return (machine.root.meta ?? {}) as MachineMeta;
}

function actionList(items: unknown): Array<{ type: string; params: unknown }> {
  const list = Array.isArray(items) ? items : items ? [items] : [];
  return list
    .map((item) =>
      typeof item === 'string'
        ? { type: item, params: undefined }
        : typeof item === 'object' && item && 'type' in item
          ? { type: String((item as { type: unknown }).type), params: (item as { params?: unknown }).params }
          : { type: '', params: undefined },
    )
    .filter((a) => a.type && !a.type.startsWith('xstate.'));
}

/** The reviewer-facing effects of a list of actions, in words. */
export function effectsOf(items: unknown): string[] {
  return actionList(items)
    .filter((a) => !BOOKKEEPING.test(a.type))
    .map((a) => {
      const params = typeof a.params === 'object' && a.params !== null ? (a.params as Record<string, unknown>) : null;
      const say = EFFECT_WORDS[a.type];
      return say ? say(params) : words(a.type);
    });
}

function guardOf(t: AnyTransitionDefinition): string | null {
  const g = t.guard as unknown;
  if (!g) return null;
  if (typeof g === 'string') return g;
  if (typeof g === 'object' && g !== null && 'type' in g) return String((g as { type: unknown }).type);
  return 'a condition';
}

/** An event type in words: the machine's `meta.events`, else a reading of XState's built-in events. */
export function eventWords(machine: AnyStateMachine, eventType: string): string {
  const named = metaOf(machine).events?.[eventType];
  if (named) return named;
  let m: RegExpExecArray | null;
  if ((m = /^xstate\.done\.actor\.(.+)$/.exec(eventType))) return `${words(m[1]!)} answered`;
  if ((m = /^xstate\.error\.actor\.(.+)$/.exec(eventType))) return `${words(m[1]!)} failed`;
  if ((m = /^xstate\.after\.(\d+)\./.exec(eventType))) return `after ${m[1]} ms`;
  if (/^xstate\.done\.state\./.test(eventType)) return 'finished';
  return eventType ? words(eventType) : 'at once';
}

function allNodes(machine: AnyStateMachine): AnyStateNode[] {
  const nodes: AnyStateNode[] = [];
  const walk = (node: AnyStateNode) => {
    for (const child of Object.values(node.states) as AnyStateNode[]) {
      nodes.push(child);
      walk(child);
    }
  };
  walk(machine.root);
  return nodes;
}

function transitionsOf(node: AnyStateNode): AnyTransitionDefinition[] {
  const list: AnyTransitionDefinition[] = [];
  for (const definitions of node.transitions.values()) list.push(...definitions);
  list.push(...(node.always ?? []));
  return list;
}

export function stateRows(machine: AnyStateMachine): StateRow[] {
  return allNodes(machine).map((node) => {
    const meta = (node.meta ?? {}) as { screen?: string };
    const entry = effectsOf(node.entry).map((e) => `on entry: ${e}`);
    const exit = effectsOf(node.exit).map((e) => `on exit: ${e}`);
    return {
      path: nodePath(node),
      id: nodeId(node),
      depth: node.path.length,
      words: node.description ?? words(node.key),
      screen: meta.screen ?? null,
      effects: [...entry, ...exit],
      calls: node.invoke.map((inv) => words(typeof inv.src === 'string' ? inv.src : inv.id)),
      final: node.type === 'final',
    };
  });
}

export function transitionRows(machine: AnyStateMachine): TransitionRow[] {
  const rows: TransitionRow[] = [];
  for (const node of [machine.root, ...allNodes(machine)]) {
    for (const t of transitionsOf(node)) {
      const guard = guardOf(t);
      const event = eventWords(machine, t.eventType);
      const targets = t.target?.length ? t.target : [t.source];
      for (const target of targets) {
        rows.push({
          from: node.path.length ? nodePath(node) : '(any state)',
          to: nodePath(target),
          event: t.eventType || 'always',
          when: t.description ?? (guard ? `${event}, if ${words(guard)}` : event),
          guard,
          effects: effectsOf(t.actions),
        });
      }
    }
  }
  return rows;
}

/** Mermaid breaks on a few characters inside labels; these stand-ins read the same. */
function safe(text: string): string {
  return text.replace(/[:;#]/g, (c) => ({ ':': '∶', ';': ',', '#': 'no.' })[c]!).replace(/"/g, '”').replace(/\n/g, ' ');
}

function edgeLabel(row: TransitionRow): string {
  return safe(row.effects.length ? `${row.when} → ${row.effects.join(', ')}` : row.when);
}

export function toMermaid(machine: AnyStateMachine): string {
  const rows = new Map(stateRows(machine).map((row) => [row.id, row]));
  const lines = ['stateDiagram-v2'];
  const notes: string[] = [];
  const box = (node: AnyStateNode, indent: string) => {
    const row = rows.get(nodeId(node))!;
    const children = Object.values(node.states) as AnyStateNode[];
    // The screen, calls and entry/exit effects sit in the state's own box: Mermaid state descriptions
    // for a simple state; a group's box takes only a title, so there they follow the words.
    const details = [
      ...(row.screen ? [`screen ${row.screen}`] : []),
      ...row.calls.map((c) => `calls ${c}`),
      ...row.effects,
    ];
    if (children.length) {
      lines.push(`${indent}state "${safe([row.words, ...details].join(' · '))}" as ${row.id} {`);
      const initial = node.initial?.target?.[0];
      if (initial) lines.push(`${indent}  [*] --> ${nodeId(initial)}`);
      for (const child of children) box(child, `${indent}  `);
      lines.push(`${indent}}`);
    } else {
      lines.push(`${indent}state "${safe(row.words)}" as ${row.id}`);
      if (row.final) lines.push(`${indent}${row.id} --> [*]`);
      for (const detail of details) notes.push(`${row.id} : ${safe(detail)}`);
    }
  };
  const root = machine.root;
  const initial = root.initial?.target?.[0];
  if (initial) lines.push(`  [*] --> ${nodeId(initial)}`);
  for (const child of Object.values(root.states) as AnyStateNode[]) box(child, '  ');
  for (const note of notes) lines.push(`  ${note}`);
  // Transitions the machine takes from any state are listed in the table, not drawn from a stray box.
  for (const row of transitionRows(machine)) {
    if (row.from === '(any state)') continue;
    lines.push(`  ${row.from.replace(/\./g, '_')} --> ${row.to.replace(/\./g, '_')}: ${edgeLabel(row)}`);
  }
  return lines.join('\n');
}

export function countOf(machine: AnyStateMachine) {
  const nodes = allNodes(machine);
  let transitions = 0;
  for (const node of [machine.root, ...nodes]) transitions += transitionsOf(node).length;
  return { states: nodes.length, transitions };
}

export function titleOf(name: string, machine: AnyStateMachine): string {
  return metaOf(machine).title ?? name;
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

export function machineDocument(name: string, machine: AnyStateMachine): string {
  const { states, transitions } = countOf(machine);
  const stateTable = stateRows(machine).map((row) => {
    const does = [...row.calls.map((c) => `calls ${c}`), ...row.effects].join('; ');
    const indent = '· '.repeat(Math.max(0, row.depth - 1));
    return `| ${indent}\`${row.path}\` | ${cell(row.words)}${row.final ? ' (the flow ends)' : ''} | ${row.screen ? `\`${row.screen}\`` : ''} | ${cell(does)} |`;
  });
  const transitionTable = transitionRows(machine).map(
    (row) => `| \`${row.from}\` | ${cell(row.when)} | \`${row.to}\` | ${cell(row.effects.join('; '))} |`,
  );
  return [
    `# ${titleOf(name, machine)} (\`${name}\`)`,
    '',
    machine.root.description ?? '',
    '',
    `Generated from \`${metaOf(machine).source ?? `src/machines/${name}/${name}.machine.ts`}\` by \`npm run statecharts\`. Do not edit by hand.`,
    `${states} states, ${transitions} transitions. Rendered in the app at \`/dev/statecharts#${name}\`;`,
    `the paths the tests walk, as steps for QA: [\`scenarios/${name}.json\`](./scenarios/${name}.json).`,
    '',
    '## States',
    '',
    '| state | what it means | screen | what it does |',
    '|---|---|---|---|',
    ...stateTable,
    '',
    '## Events',
    '',
    '| from | when | to | effects |',
    '|---|---|---|---|',
    ...transitionTable,
    '',
    '## Diagram',
    '',
    '```mermaid',
    toMermaid(machine),
    '```',
    '',
  ].join('\n');
}

export function indexDocument(machines: Record<string, AnyStateMachine>): string {
  const rows = Object.entries(machines).map(([name, machine]) => {
    const { states, transitions } = countOf(machine);
    return `| [${titleOf(name, machine)}](./${name}.md) | \`${name}\` | ${states} | ${transitions} |`;
  });
  return [
    '# Statecharts',
    '',
    'One page per flow, generated from the machines in `src/machines` and the server\'s models in `server/`',
    '(`npm run statecharts`): what the flow is for, its states and events in plain words, and the diagram.',
    'A test fails when a committed page differs from the code, so these never drift. Rendered as SVG in the',
    'app at `/dev/statecharts` (dev routes). To follow a live flow, open the app with `?inspect=local` (offline',
    'panel) or `?inspect` (Stately, needs internet); secrets are masked in both. [`scenarios/`](./scenarios)',
    'holds, per flow, every path the model-based tests walk as readable steps (kept in step by those tests;',
    '`npm run scenarios`).',
    '',
    '| flow | machine | states | transitions |',
    '|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

/** What the dev gallery (server/dev/statecharts.routes.ts) shows for one flow. */
export interface GalleryEntry {
  name: string;
  title: string;
  description: string;
  states: StateRow[];
  transitions: TransitionRow[];
  mermaid: string;
}

export function galleryEntries(machines: Record<string, AnyStateMachine>): GalleryEntry[] {
  return Object.entries(machines).map(([name, machine]) => ({
    name,
    title: titleOf(name, machine),
    description: machine.root.description ?? '',
    states: stateRows(machine),
    transitions: transitionRows(machine),
    mermaid: toMermaid(machine),
  }));
}

export function expectedFiles(machines: Record<string, AnyStateMachine>): Record<string, string> {
  const files: Record<string, string> = {
    'README.md': indexDocument(machines),
    'gallery.json': `${JSON.stringify(galleryEntries(machines), null, 1)}\n`,
  };
  for (const [name, machine] of Object.entries(machines)) files[`${name}.md`] = machineDocument(name, machine);
  return files;
}
