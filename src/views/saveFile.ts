/** Hands a file to the browser's downloads (an object address and a download link): invoices' PDFs, the data export, the back office's CSVs. */
export function saveFile(blob: Blob, file: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = file;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
