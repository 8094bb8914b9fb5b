import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One recorded exchange with the reference system (test/fixtures/reference/<set>/<case>.txt). */
export interface ReferenceCapture {
  name: string;
  method: string;
  path: string;
  requestHeaders: [string, string][];
  status: number;
  /** Response headers in order, without the recording server's own (Host, Connection). */
  headers: [string, string][];
  body: string;
  logLines: string[];
}

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'reference');
// Added by the PHP built-in server the reference was recorded behind, not by the application.
const SERVER_ARTIFACTS = new Set(['host', 'connection', 'x-powered-by']);

export function loadReferenceCaptures(set: 'dev' | 'dev-no-toolbar' | 'prod'): ReferenceCapture[] {
  const dir = join(FIXTURES, set);
  return readdirSync(dir)
    .filter((file) => file.endsWith('.txt'))
    .sort()
    .map((file) => parseCapture(file.replace(/\.txt$/, ''), readFileSync(join(dir, file), 'latin1')));
}

export function parseCapture(name: string, text: string): ReferenceCapture {
  const [head = '', afterResponse = ''] = text.split('### response (raw)\n');
  const requestLine = /^### request: (\S+) (.*)$/m.exec(head);
  if (requestLine === null) throw new Error(`capture ${name} has no request line`);
  const requestHeaders = [...head.matchAll(/^### {3}([^:]+): (.*)$/gm)].map((m): [string, string] => [m[1]!, m[2]!]);
  const [response = '', log = ''] = afterResponse.split(/^### log lines appended.*\n/m);
  const split = response.indexOf('\r\n\r\n');
  const headerBlock = split === -1 ? response.trimEnd() : response.slice(0, split);
  const [statusLine = '', ...headerLines] = headerBlock.split('\r\n');
  const headers = headerLines
    .map((line): [string, string] => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()])
    .filter(([header]) => !SERVER_ARTIFACTS.has(header.toLowerCase()));
  return {
    name,
    method: requestLine[1]!,
    path: requestLine[2]!,
    requestHeaders,
    status: Number(statusLine.split(' ')[1]),
    headers,
    // Without the line break the recording script writes before its `### log lines` heading.
    body: split === -1 ? '' : Buffer.from(response.slice(split + 4).replace(/\n$/, ''), 'latin1').toString('utf8'),
    logLines: log.split('\n').filter((line) => line.startsWith('[')),
  };
}
