/**
 * The statechart gallery for product review (issue 12), a dev route behind the same gate as the dev
 * mailbox (server/app.ts). Plain server-rendered HTML: every flow's paragraph, its states and events
 * in plain words, and its diagram. The diagrams are drawn in the browser by Mermaid's own bundle,
 * served from node_modules on this route only (CSP script-src 'self' holds; no product route loads
 * it). Without Mermaid installed the page still reads: the diagram source stays as text.
 * Content comes from docs/statecharts/gallery.json, written by `npm run statecharts` and kept in step
 * with the machines by the drift test, and the scenarios from docs/statecharts/scenarios (the model
 * tests' paths as readable steps, kept in step by those tests; `npm run scenarios` rewrites them).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Hono } from 'hono';
import { html, raw } from 'hono/html';
import type { AppEnv } from '../context';

interface GalleryEntry {
  name: string;
  title: string;
  description: string;
  states: Array<{ path: string; depth: number; words: string; screen: string | null; effects: string[]; calls: string[]; final: boolean }>;
  transitions: Array<{ from: string; to: string; when: string; effects: string[] }>;
  mermaid: string;
}

const GALLERY_FILE = join(process.cwd(), 'docs', 'statecharts', 'gallery.json');
const SCENARIO_DIR = join(process.cwd(), 'docs', 'statecharts', 'scenarios');

interface Scenario {
  start: string;
  steps: string[];
}

/** The model-based paths of a flow as readable steps (written by the model tests), if it has them. */
function scenariosOf(name: string): Scenario[] {
  const file = join(SCENARIO_DIR, `${name}.json`);
  if (!/^[A-Za-z0-9]+$/.test(name) || !existsSync(file)) return [];
  return (JSON.parse(readFileSync(file, 'utf8')) as { scenarios: Scenario[] }).scenarios;
}

function mermaidBundle(): string | null {
  try {
    const file = join(createRequire(import.meta.url).resolve('mermaid/package.json'), '..', 'dist', 'mermaid.min.js');
    return existsSync(file) ? file : null;
  } catch {
    return null;
  }
}

/** Runs after Mermaid's bundle; draws every `pre.mermaid` block into an SVG. */
const GALLERY_SCRIPT = `
const mermaid = globalThis.mermaid;
if (mermaid) {
  mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', theme: 'neutral', state: { useMaxWidth: false } });
  mermaid.run({ querySelector: 'pre.mermaid' }).then(() => { document.body.dataset.rendered = 'true'; });
}
`;

const STYLE = `
body { font: 16px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 72rem; padding: 1rem 1.5rem 4rem; color: #1f2328; }
section { border-top: 1px solid #d0d7de; padding-top: 1rem; margin-top: 2rem; }
table { border-collapse: collapse; margin: .5rem 0 1rem; font-size: .9rem; }
th, td { border: 1px solid #d0d7de; padding: .25rem .5rem; text-align: left; vertical-align: top; }
pre.mermaid { background: #f6f8fa; padding: 1rem; overflow-x: auto; }
nav ul { columns: 3; }
code { font-size: .85em; }
ol.scenarios > li { margin-bottom: .75rem; }
ol.scenarios p { margin: 0; font-weight: 600; }
`;

export function statechartRoutes() {
  const app = new Hono<AppEnv>();

  app.get('/mermaid.min.js', (c) => {
    const file = mermaidBundle();
    if (!file) return c.text('// Mermaid is not installed: the gallery shows the diagram source.', 404);
    return c.body(readFileSync(file), 200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-cache' });
  });

  app.get('/gallery.js', (c) => c.body(GALLERY_SCRIPT, 200, { 'Content-Type': 'text/javascript; charset=utf-8' }));

  app.get('/', (c) => {
    const entries = JSON.parse(readFileSync(GALLERY_FILE, 'utf8')) as GalleryEntry[];
    const query = (c.req.query('q') ?? '').trim().slice(0, 100).toLowerCase();
    const shown = entries.filter((e) => !query || e.name.toLowerCase().includes(query) || e.title.toLowerCase().includes(query));
    return c.html(html`<!doctype html>
      <html lang="en"><head><meta charset="utf-8" /><title>Statecharts</title>
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <style>${raw(STYLE)}</style></head>
      <body>
        <h1>Statecharts</h1>
        <p>Every flow of the app as a statechart, generated from the code (<code>npm run statecharts</code>).
          Boxes are states in product words with their screen, the calls they make and their effects;
          arrows are what the person or the server did, then the effects (navigation, toasts).</p>
        <form method="get" role="search">
          <label>Find a flow <input type="search" name="q" value="${query}" /></label>
          <button type="submit">Search</button>
        </form>
        ${shown.length === 0 ? html`<p>No flow matches “${query}”.</p>` : ''}
        <nav aria-label="Flows"><ul>${shown.map((e) => html`<li><a href="#${e.name}">${e.title}</a> (<code>${e.name}</code>)</li>`)}</ul></nav>
        ${shown.map(
          (e) => html`<section id="${e.name}" aria-labelledby="${e.name}-title">
            <h2 id="${e.name}-title">${e.title} <small><code>${e.name}</code></small></h2>
            <p>${e.description}</p>
            <pre class="mermaid">${e.mermaid}</pre>
            <details><summary>States (${e.states.length})</summary>
              <table><thead><tr><th>state</th><th>what it means</th><th>screen</th><th>what it does</th></tr></thead><tbody>
              ${e.states.map((s) => html`<tr><td><code>${s.path}</code></td><td>${s.words}${s.final ? ' (the flow ends)' : ''}</td><td>${s.screen ?? ''}</td><td>${[...s.calls.map((x) => `calls ${x}`), ...s.effects].join('; ')}</td></tr>`)}
              </tbody></table></details>
            <details><summary>Events (${e.transitions.length})</summary>
              <table><thead><tr><th>from</th><th>when</th><th>to</th><th>effects</th></tr></thead><tbody>
              ${e.transitions.map((t) => html`<tr><td><code>${t.from}</code></td><td>${t.when}</td><td><code>${t.to}</code></td><td>${t.effects.join('; ')}</td></tr>`)}
              </tbody></table></details>
            ${((scenarios) => html`<details><summary>Scenarios (${scenarios.length}): every path the model-based tests walk</summary>
              <ol class="scenarios">${scenarios.map((sc) => html`<li><p>Start: ${sc.start}</p><ol>${sc.steps.map((step) => html`<li>${step}</li>`)}</ol></li>`)}</ol>
              </details>`)(scenariosOf(e.name))}
          </section>`,
        )}
        <script src="/dev/statecharts/mermaid.min.js"></script>
        <script src="/dev/statecharts/gallery.js"></script>
      </body></html>`);
  });

  return app;
}
