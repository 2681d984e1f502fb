import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMachine } from 'xstate';
import { machines } from '../scripts/statechart-machines';
import { effectsOf, expectedFiles, machineDocument, stateRows, toMermaid, transitionRows } from '../scripts/statechart-writer';

const dir = join(__dirname, '..', 'docs', 'statecharts');

describe('docs/statecharts', () => {
  const files = expectedFiles(machines);
  for (const [file, text] of Object.entries(files)) {
    it(`${file} matches the code (run \`npm run statecharts\` after changing a machine)`, () => {
      expect(existsSync(join(dir, file))).toBe(true);
      expect(readFileSync(join(dir, file), 'utf8')).toBe(text);
    });
  }
  it('has no page for a machine that no longer exists', () => {
    expect(readdirSync(dir).filter((f) => /\.(md|json)$/.test(f) && !(f in files))).toEqual([]);
  });
});

describe('every machine speaks product words', () => {
  for (const [name, machine] of Object.entries(machines)) {
    it(`${name} has a paragraph, a title and a description on every top-level state`, () => {
      expect(machine.root.description?.length).toBeGreaterThan(40);
      expect((machine.root.meta as { title?: string } | undefined)?.title).toBeTruthy();
      const top = stateRows(machine).filter((row) => row.depth === 1);
      expect(top.filter((row) => !machine.getStateNodeById(`${machine.id}.${row.path}`).description).map((r) => r.path)).toEqual([]);
    });
  }
});

describe('the writer', () => {
  // A small flow with every feature the writer draws, so each rule has its own failing case.
  const demo = createMachine({
    id: 'demo',
    description: 'A demo flow for the writer.',
    meta: { title: 'Demo', events: { 'code.submit': 'The person submits the code' } },
    initial: 'verify',
    states: {
      verify: {
        description: 'Waiting for the code',
        meta: { screen: '/register/verify' },
        initial: 'form',
        states: {
          form: { description: 'Typing the code', on: { 'code.submit': { target: 'checking', actions: 'assignCode' } } },
          checking: {
            description: 'Checking the code',
            invoke: {
              src: 'verifySignUp',
              id: 'verifySignUp',
              onDone: {
                target: '#demo.done',
                description: 'Code accepted',
                actions: [{ type: 'goTo', params: { path: '/subscription' } }, { type: 'notify', params: { kind: 'success', message: 'OTP verified!' } }],
              },
              onError: { target: 'form' },
            },
          },
        },
      },
      done: { type: 'final', description: 'Signed in', entry: { type: 'goTo', params: { path: '/subscription', replace: true } }, exit: 'persistSession' },
    },
  });

  it('writes state and transition descriptions instead of code names', () => {
    const chart = toMermaid(demo);
    expect(chart).toContain('state "Waiting for the code · screen /register/verify" as verify {');
    expect(chart).toContain('verify_checking --> done: Code accepted');
    expect(chart).not.toContain('done(verifySignUp)');
  });

  it('names an event in the machine\'s words, and reads XState\'s own events', () => {
    const rows = transitionRows(demo);
    expect(rows.find((r) => r.event === 'code.submit')?.when).toBe('The person submits the code');
    expect(rows.find((r) => r.event === 'xstate.error.actor.verifySignUp')?.when).toBe('verify sign up failed');
  });

  it('puts the screen and the calls inside the state\'s own box', () => {
    const chart = toMermaid(demo);
    expect(chart).toContain('state "Waiting for the code · screen /register/verify" as verify {');
    expect(chart).toContain('verify_checking : calls verify sign up');
    expect(chart).not.toContain('note ');
  });

  it('draws effects that matter (navigation, toasts) with their static params, and hides bookkeeping', () => {
    expect(effectsOf(['assignCode', 'forgetSecrets'])).toEqual([]);
    const chart = toMermaid(demo);
    expect(chart).toContain('Code accepted → go to /subscription, toast “OTP verified!”');
    expect(chart).toContain('done : on entry∶ go to /subscription');
    expect(chart).toContain('done : on exit∶ remember the session');
    expect(chart).not.toContain('assignCode');
  });

  it('groups nested states inside their parent, each with its initial state', () => {
    const lines = toMermaid(demo).split('\n');
    const open = lines.indexOf('  state "Waiting for the code · screen /register/verify" as verify {');
    const close = lines.indexOf('  }', open);
    expect(open).toBeGreaterThan(-1);
    const inside = lines.slice(open + 1, close);
    expect(inside).toContain('    [*] --> verify_form');
    expect(inside).toContain('    state "Checking the code" as verify_checking');
    expect(lines).toContain('  done --> [*]');
  });

  it('opens the page with the paragraph and the states and events tables', () => {
    const page = machineDocument('demo', demo);
    const [title, , paragraph] = page.split('\n');
    expect(title).toBe('# Demo (`demo`)');
    expect(paragraph).toBe('A demo flow for the writer.');
    expect(page).toContain('| · `verify.checking` | Checking the code |  | calls verify sign up |');
    expect(page).toContain('| `verify` | Waiting for the code | `/register/verify` |  |');
    expect(page).toContain('| `verify.checking` | Code accepted | `done` | go to /subscription; toast “OTP verified!” |');
    expect(page.indexOf('## States')).toBeLessThan(page.indexOf('```mermaid'));
  });

  it('shows where sign-up sends the viewer at the end (the issue\'s missing /subscription)', () => {
    expect(toMermaid(machines.signUp)).toContain('verify_verifying --> signedIn: Code accepted → sign the viewer in, go to /subscription');
  });
});
