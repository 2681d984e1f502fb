/** Module hooks for `?raw` imports: the default export is the file's text (as in Vite). */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const RAW = '?raw';

export async function resolve(specifier, context, nextResolve) {
  if (!specifier.endsWith(RAW)) return nextResolve(specifier, context);
  const resolved = await nextResolve(specifier.slice(0, -RAW.length), context);
  return { url: `${resolved.url}${RAW}`, format: 'module', shortCircuit: true };
}

export async function load(url, context, nextLoad) {
  if (!url.endsWith(RAW)) return nextLoad(url, context);
  const text = await readFile(fileURLToPath(url.slice(0, -RAW.length)), 'utf8');
  return { format: 'module', source: `export default ${JSON.stringify(text)};`, shortCircuit: true };
}
