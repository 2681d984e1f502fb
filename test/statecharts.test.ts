import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { machines } from '../src/machines';
import { expectedFiles, toMermaid } from '../scripts/statechart-writer';

const dir = join(__dirname, '..', 'docs', 'statecharts');

describe('docs/statecharts', () => {
  const files = expectedFiles(machines);
  for (const [file, text] of Object.entries(files)) {
    it(`${file} matches the code (run \`npm run statecharts\` after changing a machine)`, () => {
      expect(existsSync(join(dir, file))).toBe(true);
      expect(readFileSync(join(dir, file), 'utf8')).toBe(text);
    });
  }
  it('has no diagram for a machine that no longer exists', () => {
    expect(readdirSync(dir).filter((f) => f.endsWith('.md') && !(f in files))).toEqual([]);
  });
  it('draws guards, done and error edges', () => {
    const chart = toMermaid(machines.signIn);
    expect(chart).toContain('submitting --> signedIn: done(signIn) [signInSucceeded]');
    expect(chart).toContain('submitting --> form_rejected: error(signIn) / assignServerMessage');
    expect(chart).toContain('[*] --> form');
    expect(chart).toContain('signedIn --> [*]');
  });
});
