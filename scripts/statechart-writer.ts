/**
 * Writes a machine as a Mermaid `stateDiagram-v2` for product review: initial states, nested states,
 * guarded transitions `event [guard] / actions`, done/error/after edges, invocations and final states.
 */
import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition } from 'xstate';

function nodeName(node: AnyStateNode): string {
  return node.path.length ? node.path.join('_') : node.machine.id;
}

function label(node: AnyStateNode): string {
  return node.key;
}

function eventLabel(eventType: string): string {
  let m: RegExpExecArray | null;
  if ((m = /^xstate\.done\.actor\.(.+)$/.exec(eventType))) return `done(${m[1]})`;
  if ((m = /^xstate\.error\.actor\.(.+)$/.exec(eventType))) return `error(${m[1]})`;
  if ((m = /^xstate\.after\.(\d+)\./.exec(eventType))) return `after(${m[1]}ms)`;
  if (/^xstate\.done\.state\./.test(eventType)) return 'done';
  return eventType || 'always';
}

function namesOf(items: unknown): string[] {
  const list = Array.isArray(items) ? items : items ? [items] : [];
  return list
    .map((item) => (typeof item === 'string' ? item : typeof item === 'object' && item && 'type' in item ? String(item.type) : ''))
    .filter((name) => name && !name.startsWith('xstate.'));
}

function transitionLine(t: AnyTransitionDefinition, indent: string): string[] {
  const guard = namesOf(t.guard)[0];
  const actions = namesOf(t.actions);
  const text = `${eventLabel(t.eventType)}${guard ? ` [${guard}]` : ''}${actions.length ? ` / ${actions.join(', ')}` : ''}`;
  const targets = t.target?.length ? t.target : [t.source];
  return targets.map((target) => `${indent}${nodeName(t.source)} --> ${nodeName(target)}: ${text}`);
}

function writeNode(node: AnyStateNode, indent: string, lines: string[], edges: string[]) {
  const children = Object.values(node.states) as AnyStateNode[];
  if (children.length) {
    const isRoot = node.path.length === 0;
    const inner = isRoot ? indent : `${indent}  `;
    if (!isRoot) lines.push(`${indent}state "${label(node)}" as ${nodeName(node)} {`);
    const initial = node.initial?.target?.[0];
    if (initial) lines.push(`${inner}[*] --> ${nodeName(initial)}`);
    for (const child of children) writeNode(child, inner, lines, edges);
    if (!isRoot) lines.push(`${indent}}`);
  } else {
    lines.push(`${indent}state "${label(node)}" as ${nodeName(node)}`);
    if (node.type === 'final') lines.push(`${indent}${nodeName(node)} --> [*]`);
  }
  for (const inv of node.invoke) {
    edges.push(`  note right of ${nodeName(node)}: invokes ${typeof inv.src === 'string' ? inv.src : inv.id}`);
  }
  if (node.path.length) {
    for (const definitions of node.transitions.values()) for (const t of definitions) edges.push(...transitionLine(t, '  '));
    for (const t of node.always ?? []) edges.push(...transitionLine(t, '  '));
  }
}

export function toMermaid(machine: AnyStateMachine): string {
  const lines = ['stateDiagram-v2'];
  const edges: string[] = [];
  writeNode(machine.root, '  ', lines, edges);
  for (const definitions of machine.root.transitions.values()) for (const t of definitions) edges.push(...transitionLine(t, '  '));
  return [...lines, ...edges].join('\n');
}

export function countOf(machine: AnyStateMachine) {
  const nodes: AnyStateNode[] = [];
  const walk = (node: AnyStateNode) => {
    for (const child of Object.values(node.states) as AnyStateNode[]) {
      nodes.push(child);
      walk(child);
    }
  };
  walk(machine.root);
  let transitions = 0;
  for (const node of [machine.root, ...nodes]) {
    for (const definitions of node.transitions.values()) transitions += definitions.length;
    transitions += node.always?.length ?? 0;
  }
  return { states: nodes.length, transitions };
}

export function machineDocument(name: string, machine: AnyStateMachine): string {
  const { states, transitions } = countOf(machine);
  return [
    `# ${name}`,
    '',
    `Generated from \`src/machines/${name}/${name}.machine.ts\` by \`npm run statecharts\`. Do not edit by hand.`,
    '',
    `${states} states, ${transitions} transitions.`,
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
    return `| [${name}](./${name}.md) | ${states} | ${transitions} |`;
  });
  return [
    '# Statecharts',
    '',
    'One diagram per flow, generated from the machines in `src/machines` (`npm run statecharts`).',
    'A test fails when a committed diagram differs from the code, so these never drift.',
    'To explore a flow live, open the app with `?inspect` in the address (secrets are masked).',
    '',
    '| machine | states | transitions |',
    '|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

export function expectedFiles(machines: Record<string, AnyStateMachine>): Record<string, string> {
  const files: Record<string, string> = { 'README.md': indexDocument(machines) };
  for (const [name, machine] of Object.entries(machines)) files[`${name}.md`] = machineDocument(name, machine);
  return files;
}
