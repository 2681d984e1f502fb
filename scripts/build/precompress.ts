/**
 * Build step (issue 10): writes a brotli (.br) and a gzip (.gz) twin beside every compressible file
 * of the build, so the server sends compressed bytes without compressing per request (server/platform/static.ts).
 * Node's zlib at maximum quality; a twin is written only when it is smaller than the file.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const COMPRESSIBLE = /\.(?:html|js|mjs|css|json|svg|ico|txt|webmanifest)$/;

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (COMPRESSIBLE.test(name)) out.push(path);
  }
  return out;
}

export function precompress(dir: string): { files: number; bytes: number; br: number; gzip: number } {
  const totals = { files: 0, bytes: 0, br: 0, gzip: 0 };
  for (const path of walk(dir)) {
    const body = readFileSync(path);
    const br = brotliCompressSync(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    });
    const gz = gzipSync(body, { level: 9 });
    totals.files += 1;
    totals.bytes += body.length;
    if (br.length < body.length) {
      writeFileSync(`${path}.br`, br);
      totals.br += br.length;
    }
    if (gz.length < body.length) {
      writeFileSync(`${path}.gz`, gz);
      totals.gzip += gz.length;
    }
  }
  return totals;
}
