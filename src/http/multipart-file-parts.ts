// A quoted string; one left open runs to the end of the line. Required to close, the pattern failed on an open
// one and was tried again from each later quote: `name="\"\"\"…` took minutes for a body of a megabyte.
const QUOTED = /"(?:\\[^]|[^"\\])*(?:"|\\?$)/g;

/**
 * For each `form-data` part of a multipart body, in order, whether its Content-Disposition names a file
 * (has a `filename` or `filename*` parameter), empty or not. busboy reads `filename=""`, which a browser
 * sends for a file input left empty, as no file name at all, and then hands the part over as a field;
 * PHP leaves it out of the fields (UPLOAD_ERR_NO_FILE), and so must keel: this tells the two apart. Parts
 * busboy skips (no Content-Disposition, another type than form-data) are skipped here too, so that the
 * n-th entry is busboy's n-th part. A body this cannot read gives what it read so far: busboy refuses it.
 */
export function partsNamingAFile(contentType: string, bytes: Buffer): boolean[] {
  const boundary = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (boundary === null) return [];
  const delimiter = `--${boundary[1] ?? boundary[2]}`;
  const found: boolean[] = [];
  let at = bytes.indexOf(delimiter);
  while (at !== -1) {
    const afterDelimiter = at + delimiter.length;
    if (bytes.toString('latin1', afterDelimiter, afterDelimiter + 2) === '--') break;
    const headersStart = bytes.indexOf('\r\n', afterDelimiter);
    const headersEnd = headersStart === -1 ? -1 : bytes.indexOf('\r\n\r\n', headersStart);
    if (headersEnd === -1) break;
    const disposition = /^content-disposition:(.*)$/im.exec(bytes.toString('latin1', headersStart + 2, headersEnd))?.[1];
    if (disposition !== undefined && disposition.split(';', 1)[0]!.trim().toLowerCase() === 'form-data') {
      // Quoted values emptied first: a field named "a; filename=x" names no file.
      found.push(/;\s*filename\*?\s*=/i.test(disposition.replace(QUOTED, '""')));
    }
    at = bytes.indexOf(`\r\n${delimiter}`, headersEnd);
    if (at !== -1) at += 2;
  }
  return found;
}
