/**
 * `npm run sales-book -- 2026-11-01 2026-11-30 [--out file.csv]`: the invoices and credit memos issued in
 * that range of Manila dates (both included) as CSV, one row each, then the totals row
 * (server/billing/salesBook.ts; product.md#invoices). Reads the database of DATABASE_URL (or DATA_DIR's
 * PGlite), as `npm run migrate` does; writes to the file, else to standard output.
 */
import { writeFileSync } from 'node:fs';
import { salesBook, salesBookCsv } from '../server/billing/salesBook';
import { openDatabase } from '../server/platform/db';

const args = process.argv.slice(2);
const outAt = args.indexOf('--out');
const out = outAt >= 0 ? args[outAt + 1] : undefined;
const [from, to] = args.filter((arg, index) => outAt < 0 || (index !== outAt && index !== outAt + 1));
if (!from || !to || (outAt >= 0 && !out)) {
  console.error('Usage: npm run sales-book -- <from YYYY-MM-DD> <to YYYY-MM-DD> [--out file.csv]   (Manila dates, both included)');
  process.exit(2);
}
const dataDir = process.env.DATA_DIR ?? '.data';
if (dataDir === ':memory:') {
  console.error('npm run sales-book: DATA_DIR=:memory: is an empty throwaway database; set DATABASE_URL or DATA_DIR to the database to read');
  process.exit(1);
}
const db = await openDatabase(dataDir, process.env.DATABASE_URL);
try {
  const book = await salesBook(db, from, to);
  const csv = salesBookCsv(book);
  if (out) {
    writeFileSync(out, csv);
    console.info(`Sales book ${from} to ${to}: ${book.rows.length} documents, total ${book.totals.total} (VATable ${book.totals.vatable}, VAT ${book.totals.vat}) written to ${out}`);
  } else process.stdout.write(csv);
} catch (error) {
  console.error(`npm run sales-book failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await db.close();
}
