/** `npm run statecharts` writes docs/statecharts; `npm run statecharts:check` fails when they drift. */
import { existsSync, mkdirSync, readFileSync, readdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { machines } from './statechart-machines';
import { expectedFiles } from './statechart-writer';

const dir = 'docs/statecharts';
const files = expectedFiles(machines);
const mode = process.argv[2] ?? 'check';

if (mode === 'write') {
  mkdirSync(dir, { recursive: true });
  for (const file of readdirSync(dir)) if (/\.(md|json)$/.test(file) && !(file in files)) unlinkSync(join(dir, file));
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  console.info(`wrote ${Object.keys(files).length} files to ${dir}`);
} else {
  const stale = Object.entries(files)
    .filter(([file, text]) => !existsSync(join(dir, file)) || readFileSync(join(dir, file), 'utf8') !== text)
    .map(([file]) => file);
  const extra = existsSync(dir) ? readdirSync(dir).filter((file) => /\.(md|json)$/.test(file) && !(file in files)) : [];
  if (stale.length || extra.length) {
    console.error(`docs/statecharts is out of date (${[...stale, ...extra].join(', ')}): run \`npm run statecharts\``);
    process.exit(1);
  }
  console.info('docs/statecharts match the machines');
}
