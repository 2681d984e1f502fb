/**
 * One layout for every flow (docs/architecture.md#the-clients-flows): each folder of src/machines holds
 * `<flow>.machine.ts`, `<flow>.connect.ts` with exactly one `connect<Flow>` and an `index.ts`, and the
 * chart is in the gallery's list. codeEntry is a chart part two flows place, with its connect.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { machines } from '../../src/machines';

const root = join(import.meta.dirname, '../../src/machines');
const flows = readdirSync(root).filter((name) => statSync(join(root, name)).isDirectory());
const PARTS = ['codeEntry'];

describe('the flows share one layout', () => {
  it.each(flows.filter((flow) => !PARTS.includes(flow)))('%s has its chart, one connect and an index', (flow) => {
    expect(existsSync(join(root, flow, `${flow}.machine.ts`))).toBe(true);
    expect(existsSync(join(root, flow, 'index.ts'))).toBe(true);
    const connect = readFileSync(join(root, flow, `${flow}.connect.ts`), 'utf8');
    const connects = [...connect.matchAll(/export function (connect\w+)\(/g)].map((match) => match[1]);
    expect(connects).toEqual([`connect${flow[0]!.toUpperCase()}${flow.slice(1)}`]);
    expect(Object.keys(machines)).toContain(flow);
  });

  it('has no file outside the layout', () => {
    const allowed = /^(\w+)\.(machine|connect|actors|address|format|chart)\.ts$|^index\.ts$/;
    for (const flow of flows) {
      for (const file of readdirSync(join(root, flow))) {
        expect(file, `${flow}/${file}`).toMatch(allowed);
        const owner = allowed.exec(file)?.[1];
        if (owner) expect(owner, `${flow}/${file}`).toBe(flow);
      }
    }
  });
});
