/**
 * Re-points comment citations of the two documents that live outside the repository (the product
 * specification, cited "spec §N", and the design notes, cited "design" / "design.md") to
 * `docs/product.md#anchor` (issue 16, item 5).
 *
 *   npx tsx scripts/cite-docs.ts            prints the planned changes (file:line old → new) and counts
 *   npx tsx scripts/cite-docs.ts --write    applies them
 *   --include-test-titles                   also rewrites test titles (the first argument of describe/it/test)
 *
 * Only comments (TypeScript/JavaScript via the TypeScript parser, SQL `--` and block comments) and
 * Markdown text are touched. String literals are never changed (UI strings may hold the section
 * sign); citations found in them are listed as skipped. Which anchor a citation gets: the section
 * number, then what follows it (a route, a quoted subsection title, a known phrase), then the words
 * of the comment around it; design references by the words around them, else `#decisions`.
 */
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const ROOT = process.cwd();
const SELF = 'scripts/cite-docs.ts';
const DIRS = ['src', 'server', 'test', 'scripts'];
const FILES = ['README.md', 'SECURITY.md'];
const SKIP_DIRS = new Set(['node_modules', 'dist', '.data', '.cache', 'test-results', 'playwright-report']);
const DOC = 'product.md';
const args = new Set(process.argv.slice(2));
const write = args.has('--write');
const includeTestTitles = args.has('--include-test-titles');

type Rule = [RegExp, string];

/** Default anchor of each section of the specification (the table at the top of docs/product.md). */
const SECTION: Record<number, string> = {
  1: 'product', 2: 'screens', 3: 'entities', 4: 'states', 5: 'validation', 6: 'roles', 7: 'api', 8: 'errors', 9: 'constants',
};

/** Routes named after "§2" (longest first). */
const ROUTES: Rule[] = [
  [/^\/subscription\/change-payment-method/, 'change-payment-method'],
  [/^\/subscription\/change-plan/, 'change-plan'],
  [/^\/subscription\/redeem-voucher/, 'redeem-voucher'],
  [/^\/subscription\/payment/, 'subscribe-wizard'],
  [/^\/subscription/, 'subscription'],
  [/^\/register\/verify/, 'sign-up-code'],
  [/^\/register/, 'register'],
  [/^\/forgot-password/, 'recovery'],
  [/^\/login/, 'sign-in'],
  [/^\/auth/, 'login-link'],
  [/^\/payment/, 'payment-result'],
  [/^\/account/, 'account'],
  [/^\/legal/, 'legal'],
];

/** Subsection titles or phrases written right after "§N" (consumed: the anchor says it). */
const QUALIFIERS: Record<number, Array<[RegExp, string[]]>> = {
  2: [
    [/^'Card option'/, ['card-option']], [/^'Wallet option'/, ['wallet-option']], [/^'Checkout option'/, ['checkout-option']],
    [/^'Subscribe wizard'/, ['subscribe-wizard']], [/^tabs\b/, ['subscription']], [/^parameters\b/, ['subscribe-wizard']],
  ],
  3: [
    [/^'New card input'/, ['new-card']], [/^current subscription status\b/, ['subscription-status']],
    [/^current status\b/, ['subscription-status']], [/^payment record\b/, ['payment-record']], [/^User\b/, ['user']],
  ],
  4: [
    [/^'Payment method selector'/, ['method-selector']], [/^selector\b/, ['method-selector']],
    [/^'Payments'/, ['payment-flows']], [/^'Plan change'/, ['plan-change-flow']], [/^'Session'/, ['session-state']],
  ],
  5: [[/^'Card'/, ['card-rules']], [/^schema\b/, ['card-rules']]],
  9: [
    [/^price and period label\b/, ['price-suffix', 'period-label']], [/^price suffix\b/, ['price-suffix']],
    [/^period label\b/, ['period-label']], [/^'s suffix\b/, ['price-suffix']],
  ],
};

/** Words of the comment that choose a subsection when nothing follows "§N" (first match wins). */
const CONTEXT: Record<number, Rule[]> = {
  2: [
    [/route table/, 'routes'],
    [/written from/, 'screens'],
    [/\bguards?\b/i, 'guards'],
    [/'My Account'|dropdown|\bheader\b|\bfooter\b/, 'layout'],
    [/\btheme\b/i, 'app-wide'],
    [/seven questions|\bFAQ\b/, 'faq'],
    [/landing page|Get Started|typed on the landing/, 'landing'],
    [/[Ll]ogin-link|\/auth\b/, 'login-link'],
    [/[Rr]ecovery|forgot-password/, 'recovery'],
    [/[Ss]ign-up|\/register/, 'register'],
    [/welcome-back|[Ss]ign-in|\/login/, 'sign-in'],
    [/[Cc]hange plan|change-plan/, 'change-plan'],
    [/[Ww]allet/, 'wallet-option'],
    [/'Use this card'|\*\*\*\*|[Cc]ard entry/, 'card-option'],
    [/[Cc]hange payment method|change-payment-method/, 'change-payment-method'],
    [/[Rr]edeem/, 'redeem-voucher'],
    [/wizard|\/subscription\/payment/, 'subscribe-wizard'],
    [/[Pp]ayment result|\/payment\b/, 'payment-result'],
    [/[Cc]ancel and reactivate|history|Active tab|Next Billing|subscription (page|home)|current-subscription/, 'subscription'],
    [/\bAccount\b|[Pp]rofile|Security card|[Pp]hoto/, 'account'],
  ],
  3: [
    [/payment records?/i, 'payment-record'],
    [/voucher subscription/i, 'voucher-subscription'],
    [/current (subscription )?status/i, 'subscription-status'],
    [/[Nn]ew card|request body/, 'new-card'],
  ],
  4: [
    [/[Ss]ession|\b401\b|welcome-back|browser keys|storage/, 'session-state'],
    [/[Rr]ecovery|forgot-password/, 'recovery-flow'],
    [/[Ss]ign-up/, 'sign-up-flow'],
    [/selector|'Use this card'|wallet-link return forces|current method/, 'method-selector'],
    [/[Cc]hange plan|[Pp]lan change/, 'plan-change-flow'],
    [/[Vv]oucher/, 'voucher-flow'],
    [/[Cc]ancel|[Rr]eactivat|read again|after a change/, 'subscription-flow'],
    [/[Ww]allet|[Pp]ayment|[Cc]heckout/, 'payment-flows'],
  ],
  5: [
    [/[Cc]ard (entry|number|rules)|'Card'|\bCVC\b|[Bb]rand|Visa/, 'card-rules'],
    [/6-character code|one-time code|\bOTP\b/, 'otp-rule'],
    [/browser's (own )?confirmation|Please select a plan|Please connect/, 'other-rules'],
    [/[Uu]pper-case|validation message/, 'form-rules'],
  ],
  7: [
    [/every call|\bcalls\b|call of|payloads?\b|endpoints/, 'calls'],
    [/sends the viewer back/, 'wallet-return'],
    [/envelope|request function|throw/, 'envelope'],
  ],
  9: [
    [/toast/i, 'toasts'],
    [/Asia\/Manila|12-hour|[Dd]ates? |date-fns|dates\.ts/, 'dates'],
    [/suffix|last two digits/, 'price-suffix'],
    [/period label/, 'period-label'],
    [/browser keys|session's browser|'theme'|storage/, 'storage-keys'],
    [/freshness|refetch/, 'caching'],
    [/400px|grid|two columns|at most 400/, 'layout-sizes'],
  ],
};

/**
 * What a file is about, by its name (folders may move; flow names stay): the anchor for "§2", "§4"
 * or "§5" with no route or title after it, when the sentence itself names nothing.
 */
const FILE_HINTS: Record<string, Partial<Record<number, string>>> = {
  cancelsubscription: { 2: 'subscription', 4: 'subscription-flow' },
  cardentry: { 2: 'card-option', 4: 'method-selector', 5: 'card-rules' },
  cardform: { 2: 'card-option', 4: 'method-selector', 5: 'card-rules' },
  changeplan: { 2: 'change-plan', 4: 'plan-change-flow', 5: 'other-rules' },
  loginlink: { 2: 'login-link', 4: 'sign-up-flow', 5: 'form-rules' },
  paymentmethod: { 2: 'change-payment-method', 4: 'method-selector', 5: 'other-rules' },
  changepaymentmethod: { 2: 'change-payment-method', 4: 'method-selector', 5: 'other-rules' },
  recovery: { 2: 'recovery', 4: 'recovery-flow', 5: 'form-rules' },
  session: { 4: 'session-state' },
  signin: { 2: 'sign-in', 5: 'form-rules' },
  login: { 2: 'sign-in', 5: 'form-rules' },
  signup: { 2: 'register', 4: 'sign-up-flow', 5: 'form-rules' },
  subscribe: { 2: 'subscribe-wizard', 4: 'payment-flows', 5: 'other-rules' },
  subscription: { 2: 'subscription', 4: 'subscription-flow' },
  voucher: { 2: 'redeem-voucher', 4: 'voucher-flow', 5: 'form-rules' },
  redeemvoucher: { 2: 'redeem-voucher', 4: 'voucher-flow', 5: 'form-rules' },
  walletlink: { 2: 'wallet-option', 4: 'payment-flows' },
  walletpanel: { 2: 'wallet-option', 4: 'payment-flows' },
  profile: { 2: 'account', 5: 'form-rules' },
  photo: { 2: 'account' },
  password: { 2: 'account', 5: 'form-rules' },
  account: { 2: 'account', 5: 'form-rules' },
};

function fileHint(file: string, n: number): string | undefined {
  const name = (file.split('/').pop() ?? '').split('.')[0]!.toLowerCase().replace(/page$/, '');
  return FILE_HINTS[name]?.[n];
}

/** Design references: specific anchors first; `generic` ones only when no specific one matched anywhere. */
const DESIGN: Array<{ re: RegExp; anchor: string; generic?: boolean }> = [
  { re: /throttl|[Ff]ailed sign-ins|growing delays/, anchor: 'security-sign-in' },
  { re: /password change or reset|every other session/, anchor: 'security-credentials' },
  { re: /[Oo]ne-time codes?|\b60 s\b|secure RNG/, anchor: 'security-codes' },
  { re: /security headers|\bCSP\b/, anchor: 'security-headers' },
  { re: /[Pp]hotos?\b|uploads?\b/, anchor: 'security-uploads' },
  { re: /password rule|common password|too common|8 to 128|8\.\.128|minimum age/, anchor: 'password-rule' },
  { re: /React Query|owns (the )?(server data|profile)|session actor|projection/, anchor: 'state-ownership' },
  { re: /register\/verify|sign-up code/, anchor: 'sign-up-code' },
  { re: /mailbox and login links|QA's tools/, anchor: 'dev-routes' },
  { re: /mailbox/, anchor: 'dev-mailbox' },
  { re: /\/auth\b|[Ll]ogin-link verification/, anchor: 'auth-route' },
  { re: /app-config|base address/, anchor: 'app-config' },
  { re: /by slug/, anchor: 'plan-by-slug' },
  { re: /preview|before it is confirmed|what a (plan )?change (to|would)/, anchor: 'plan-preview' },
  { re: /payment (history|records)/, anchor: 'payment-history' },
  { re: /[Rr]eference data|seed/, anchor: 'reference-data' },
  { re: /scrypt|hashing/, anchor: 'reference-server' },
  { re: /seven questions|\bFAQ\b/, anchor: 'faq' },
  { re: /spec leaves open|leaves open/, anchor: 'gaps' },
  { re: /limits and headers|security policy/, anchor: 'security', generic: true },
];

/** Words that end the noun phrase after "the design's X" (the citation goes in after the phrase). */
const PHRASE_END = new Set(['still', 'hold', 'holds', 'is', 'are', 'was', 'were', 'must', 'apply', 'applies', 'stay', 'stays', 'say', 'says', 'for', 'in', 'on', 'with']);

// ---------------------------------------------------------------------------------------------

interface Region { start: number; end: number; kind: 'comment' | 'markdown' | 'test-title' | 'string' }
interface Edit { start: number; end: number; text: string; what: string }
interface Note { file: string; line: number; text: string; why: string }

function walk(dir: string, out: string[]) {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    if (SKIP_DIRS.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else out.push(relative(ROOT, path));
  }
}

function isTestCall(node: ts.Node): boolean {
  const call = node.parent;
  if (!call || !ts.isCallExpression(call) || call.arguments[0] !== node) return false;
  let callee: ts.Expression = call.expression;
  while (ts.isPropertyAccessExpression(callee) || ts.isCallExpression(callee)) callee = ts.isCallExpression(callee) ? callee.expression : callee.expression;
  return ts.isIdentifier(callee) && ['describe', 'it', 'test'].includes(callee.text);
}

/** Comments and string literals of a TypeScript or JavaScript file. */
function scriptRegions(file: string, text: string): Region[] {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : /\.(m|c)?js$/.test(file) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const seen = new Set<number>();
  const regions: Region[] = [];
  const addComment = (pos: number, end: number) => {
    if (seen.has(pos)) return;
    seen.add(pos);
    regions.push({ start: pos, end, kind: 'comment' });
  };
  const visit = (node: ts.Node) => {
    if (node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode) return;
    ts.forEachLeadingCommentRange(text, node.pos, addComment);
    ts.forEachTrailingCommentRange(text, node.end, addComment);
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateLiteralToken(node) || ts.isJsxText(node)) {
      regions.push({ start: node.getStart(source), end: node.end, kind: isTestCall(node) && file.startsWith('test/') ? 'test-title' : 'string' });
    }
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  return regions;
}

/** Comments of a SQL file (`--` to the end of the line, block comments), skipping quoted text. */
function sqlRegions(text: string): Region[] {
  const regions: Region[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "'") {
      i++;
      while (i < text.length && !(text[i] === "'" && text[i + 1] !== "'")) i += text[i] === "'" ? 2 : 1;
    } else if (text.startsWith('--', i)) {
      const end = text.indexOf('\n', i);
      regions.push({ start: i, end: end < 0 ? text.length : end, kind: 'comment' });
      i = end < 0 ? text.length : end;
    } else if (text.startsWith('/*', i)) {
      const end = text.indexOf('*/', i + 2);
      regions.push({ start: i, end: end < 0 ? text.length : end + 2, kind: 'comment' });
      i = end < 0 ? text.length : end + 1;
    }
  }
  return regions;
}

function regionsOf(file: string, text: string): Region[] | null {
  if (file.endsWith('.md')) return [{ start: 0, end: text.length, kind: 'markdown' }];
  if (/\.(ts|tsx|mts|cts|js|mjs|cjs)$/.test(file)) return scriptRegions(file, text);
  if (file.endsWith('.sql')) return sqlRegions(text);
  return null;
}

/** The sentence around an offset of a comment, and the comment's first sentence. */
function scopes(comment: string, offset: number): string[] {
  const before = comment.slice(0, offset);
  const after = comment.slice(offset);
  const from = Math.max(before.lastIndexOf('. '), before.lastIndexOf('.\n'), before.lastIndexOf('; '));
  const toMatch = /[.;](\s|$)/.exec(after);
  const sentence = comment.slice(from < 0 ? 0 : from + 1, toMatch ? offset + toMatch.index : comment.length);
  const first = /^[\s\S]*?[.;](\s|$)/.exec(comment)?.[0] ?? comment;
  return [sentence, first, comment];
}

const link = (anchor: string) => `${DOC}#${anchor}`;

function sectionAnchors(n: number, following: string, comment: string, offset: number, file: string): { anchors: string[]; consumed: number } {
  const route = /^ (\/[\w\-/]*(?:\?[\w\-=&{}.]*)?)/.exec(following);
  if (n === 2 && route) {
    const hit = ROUTES.find(([re]) => re.test(route[1]!));
    if (hit) return { anchors: [hit[1]], consumed: route[0].length };
  }
  const possessive = following.startsWith("'s") ? 0 : 1;
  for (const [re, anchors] of QUALIFIERS[n] ?? []) {
    const m = re.exec(following.slice(possessive));
    if (m && (possessive === 0 || following[0] === ' ')) return { anchors, consumed: possessive + m[0].length };
  }
  // The sentence first, then what the file is about, then the rest of the comment.
  const [sentence, ...wider] = scopes(comment, offset);
  const byWords = (scope: string) => (CONTEXT[n] ?? []).find(([re]) => re.test(scope))?.[1];
  const anchor = byWords(sentence!) ?? fileHint(file, n) ?? wider.map(byWords).find(Boolean);
  if (anchor) return { anchors: [anchor], consumed: 0 };
  return { anchors: [SECTION[n] ?? 'decisions'], consumed: 0 };
}

function designAnchor(qualifier: string, comment: string, offset: number): string {
  const levels = [qualifier, ...scopes(comment, offset)];
  for (const scope of levels) {
    const hit = DESIGN.find((rule) => !rule.generic && rule.re.test(scope));
    if (hit) return hit.anchor;
  }
  for (const scope of levels) {
    const hit = DESIGN.find((rule) => rule.generic && rule.re.test(scope));
    if (hit) return hit.anchor;
  }
  return 'decisions';
}

/** "§2 /x, §4 'Y' and §8": the section sign with its number, and what may follow it. */
const SECTION_SIGN = /(\b[Ss]pec(?:ification)? )?§(\d+)/g;
/** "design.md", "the design", "(design)", "design: …", possessives. */
const DESIGN_REF = /\b([Tt]he |of the )?([Dd]esign(?:\.md)?)('s)?(?![\w-])/g;
/** Qualifiers after "design:" that only name the design's section (the anchor replaces them). */
const SECTION_NAMES = /^(the )?(security policy|reference data|the base address call|base address call|session actor)$/;

function planFor(comment: string, base: number, file: string): { edits: Edit[]; found: number } {
  const edits: Edit[] = [];
  let found = 0;
  for (const m of comment.matchAll(SECTION_SIGN)) {
    found++;
    const n = Number(m[2]);
    const offset = m.index!;
    const after = comment.slice(offset + m[0].length);
    const { anchors, consumed } = sectionAnchors(n, after, comment, offset, file);
    const text = anchors.map(link).join(', ');
    edits.push({ start: base + offset, end: base + offset + m[0].length + consumed, text, what: `§${n}` });
  }
  for (const m of comment.matchAll(DESIGN_REF)) {
    const [whole, lead = '', word, poss] = m;
    const offset = m.index!;
    const isFile = /\.md$/.test(word!);
    const next = comment[offset + whole.length];
    const prev = comment[offset - 1];
    const cited = isFile || lead !== '' || next === ')' || next === ':' || prev === '(';
    if (!cited) continue;
    found++;
    let qualifier = '';
    let qualifierEnd = offset + whole.length;
    if (next === ':' && !poss) {
      const q = /^:\s*([^;)]*?)(?=\)|;|$|\.\s)/m.exec(comment.slice(offset + whole.length));
      if (q) { qualifier = q[1]!; qualifierEnd = offset + whole.length + q[0].length; }
    }
    const anchor = designAnchor(qualifier, comment, offset);
    if (poss) {
      // "the design's 60 s rule still holds" → "the 60 s rule (product.md#…) still holds"
      const rest = comment.slice(offset + whole.length);
      const words = /^\s*((?:[^\s,.;:)]+)(?:\s+[^\s,.;:)]+)*)/.exec(rest)?.[1]?.split(/\s+/) ?? [];
      const kept: string[] = [];
      for (const w of words) { if (kept.length && PHRASE_END.has(w)) break; kept.push(w); }
      const phrase = kept.join(' ');
      const phraseStart = rest.indexOf(phrase);
      const atStart = /(^|\n)\s*(\*|\/\/|\/\*\*?|--)?\s*$/.test(comment.slice(0, offset));
      const the = atStart ? 'The' : 'the';
      edits.push({ start: base + offset, end: base + offset + whole.length + phraseStart + phrase.length, text: `${the} ${phrase} (${link(anchor)})`, what: 'design' });
    } else if (lead.startsWith('of')) {
      edits.push({ start: base + offset, end: base + offset + whole.length, text: `of ${link(anchor)}`, what: 'design' });
    } else if (qualifier && SECTION_NAMES.test(qualifier.trim())) {
      edits.push({ start: base + offset, end: base + qualifierEnd, text: link(anchor), what: 'design' });
    } else {
      const seeAll = /see $/.test(comment.slice(0, offset)) ? 'gaps' : anchor;
      edits.push({ start: base + offset, end: base + offset + whole.length, text: link(seeAll), what: 'design' });
    }
  }
  return { edits, found };
}

function lineOf(text: string, pos: number) {
  return text.slice(0, pos).split('\n').length;
}

function lineAt(text: string, pos: number) {
  const start = text.lastIndexOf('\n', pos - 1) + 1;
  const end = text.indexOf('\n', pos);
  return { start, end: end < 0 ? text.length : end };
}

// ---------------------------------------------------------------------------------------------

const files: string[] = [];
for (const dir of DIRS) walk(join(ROOT, dir), files);
for (const file of FILES) if (existsSync(join(ROOT, file))) files.push(file);

const docText = readFileSync(join(ROOT, 'docs', DOC), 'utf8');
const known = new Set([...docText.matchAll(/<a id="([^"]+)"><\/a>/g)].map((m) => m[1]));

let found = 0;
let planned = 0;
let filesChanged = 0;
const byKind = { '§': 0, design: 0 };
const skipped: Note[] = [];
const loose: Note[] = [];
const longLines: Note[] = [];
const used = new Map<string, number>();
const output: string[] = [];

for (const file of files.sort()) {
  if (file === SELF) continue;
  const text = readFileSync(join(ROOT, file), 'utf8');
  if (!/§|design|\bspec\b/i.test(text)) continue;
  const regions = regionsOf(file, text);
  if (!regions) {
    if (/§\d|design\.md/.test(text)) skipped.push({ file, line: 1, text: '(whole file)', why: 'file type not parsed' });
    continue;
  }
  const edits: Edit[] = [];
  for (const region of regions) {
    const body = text.slice(region.start, region.end);
    const rewritable = region.kind === 'comment' || region.kind === 'markdown' || (region.kind === 'test-title' && includeTestTitles);
    const plan = planFor(body, region.start, file);
    if (!rewritable) {
      for (const edit of plan.edits) {
        const { start, end } = lineAt(text, edit.start);
        skipped.push({ file, line: lineOf(text, edit.start), text: text.slice(start, end).trim(), why: region.kind === 'test-title' ? 'test title (string literal; --include-test-titles rewrites it)' : 'string literal' });
      }
      found += plan.found;
      continue;
    }
    found += plan.found;
    edits.push(...plan.edits);
    if (region.kind !== 'test-title') {
      for (const m of body.matchAll(/\b[Tt]he spec(?:'s)?\b(?! §| files?\b)/g)) {
        const pos = region.start + m.index!;
        const { start, end } = lineAt(text, pos);
        loose.push({ file, line: lineOf(text, pos), text: text.slice(start, end).trim(), why: '"the spec" without a section' });
      }
    }
  }
  if (!edits.length) continue;
  edits.sort((a, b) => a.start - b.start);
  for (let i = 1; i < edits.length; i++) {
    if (edits[i]!.start < edits[i - 1]!.end) throw new Error(`${file}: overlapping edits at ${lineOf(text, edits[i]!.start)}`);
  }
  let next = text;
  for (const edit of [...edits].reverse()) next = next.slice(0, edit.start) + edit.text + next.slice(edit.end);
  planned += edits.length;
  filesChanged++;
  for (const edit of edits) {
    byKind[edit.what === 'design' ? 'design' : '§']++;
    for (const m of edit.text.matchAll(/product\.md#([\w-]+)/g)) {
      used.set(m[1]!, (used.get(m[1]!) ?? 0) + 1);
      if (!known.has(m[1]!)) throw new Error(`${file}: anchor #${m[1]} is not in docs/${DOC}`);
    }
  }
  // The changed lines, old and new.
  const oldLines = text.split('\n');
  const newLines = next.split('\n');
  const touched = new Set(edits.map((e) => lineOf(text, e.start)));
  for (const line of [...touched].sort((a, b) => a - b)) {
    output.push(`${file}:${line}\n  - ${oldLines[line - 1]!.trim()}\n  + ${newLines[line - 1]!.trim()}`);
    if (newLines[line - 1]!.length > 120) longLines.push({ file, line, text: '', why: `${newLines[line - 1]!.length} characters` });
  }
  if (oldLines.length !== newLines.length) throw new Error(`${file}: a rewrite changed the number of lines`);
  if (write) writeFileSync(join(ROOT, file), next);
}

console.info(output.join('\n'));
console.info('');
if (skipped.length) {
  console.info(`Not rewritten (not a comment or Markdown), ${skipped.length}:`);
  for (const s of skipped) console.info(`  ${s.file}:${s.line} [${s.why}] ${s.text}`);
  console.info('');
}
if (loose.length) {
  console.info(`"the spec" with no section number (left as is; say "the product's rules" or cite an anchor by hand), ${loose.length}:`);
  for (const s of loose) console.info(`  ${s.file}:${s.line} ${s.text}`);
  console.info('');
}
if (longLines.length) {
  console.info(`Lines longer than 120 characters after the rewrite (rewrap by hand), ${longLines.length}:`);
  for (const s of longLines) console.info(`  ${s.file}:${s.line} (${s.why})`);
  console.info('');
}
console.info('Anchors used: ' + [...used].sort((a, b) => b[1] - a[1]).map(([a, n]) => `#${a} ${n}`).join(', '));
console.info(`Citations found: ${found} (in comments and Markdown: ${planned}; elsewhere: ${skipped.length}).`);
console.info(`${write ? 'Rewritten' : 'Planned'}: ${planned} in ${filesChanged} files (spec § ${byKind['§']}, design ${byKind.design}).${write ? '' : ' Nothing written: pass --write.'}`);
