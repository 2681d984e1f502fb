/** A PDF's text, page by page, read back with Mozilla's PDF.js (pdfjs-dist, a dev dependency): what a reader's viewer shows. */
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

export async function pdfText(bytes: Uint8Array): Promise<string> {
  const pdf = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, disableFontFace: true, verbosity: 0 }).promise;
  const pages: string[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const content = await (await pdf.getPage(n)).getTextContent();
    // One line per text run as laid out; runs on one line joined by a space.
    let line = '';
    const lines: string[] = [];
    for (const item of content.items) {
      if (!('str' in item)) continue;
      line += (line && item.str && !line.endsWith(' ') ? ' ' : '') + item.str;
      if (item.hasEOL) {
        lines.push(line.replace(/\s+/g, ' ').trim());
        line = '';
      }
    }
    if (line.trim()) lines.push(line.replace(/\s+/g, ' ').trim());
    pages.push(lines.join('\n'));
  }
  await pdf.destroy();
  return pages.join('\n\f\n');
}
