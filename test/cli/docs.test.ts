import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { REPO_ROOT } from './run-keel.js';

// Every page a reader follows links through: the README and each guide.
const PAGES = ['README.md', ...readdirSync(join(REPO_ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => join('docs', name))];

function readDoc(name: string): string {
  return readFileSync(join(REPO_ROOT, 'docs', name), 'utf8');
}

function codeBlock(markdown: string, language: string): string {
  const found = new RegExp('```' + language + '\\n([\\s\\S]*?)```').exec(markdown);
  assert.ok(found, `a ${language} block`);
  return found[1]!;
}

// GitHub's anchor of a heading: lower case, punctuation but `-` and `_` dropped, each space a `-`.
function anchorsOf(markdown: string): Set<string> {
  const outside = markdown.replace(/^```[\s\S]*?^```/gm, '');
  return new Set([...outside.matchAll(/^#{1,6} (.+)$/gm)].map(([, heading]) => heading!.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-')));
}

describe('the guides', () => {
  for (const page of PAGES) {
    it(`${page} links only to files and headings that exist`, () => {
      const text = readFileSync(join(REPO_ROOT, page), 'utf8');
      for (const [, target, anchor] of text.matchAll(/\]\(([^)#\s]*)(?:#([^)\s]*))?\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const file = target === '' ? join(REPO_ROOT, page) : join(REPO_ROOT, dirname(page), target!);
        assert.ok(existsSync(file), `${page} links to ${target}, which does not exist`);
        if (anchor === undefined || !file.endsWith('.md')) continue;
        assert.ok(anchorsOf(readFileSync(file, 'utf8')).has(anchor), `${page} links to ${relative(REPO_ROOT, file)}#${anchor}, a heading it does not have`);
      }
    });
  }

  it('gives an nginx server block that sends the reference header set and that nginx accepts', () => {
    const block = codeBlock(readDoc('deployment.md'), 'nginx');
    for (const header of ['X-Forwarded-For', 'X-Forwarded-Host', 'X-Forwarded-Port', 'X-Forwarded-Proto', 'X-Forwarded-Server', 'X-Real-IP']) {
      assert.match(block, new RegExp(`proxy_set_header ${header} `));
    }
    if (spawnSync('nginx', ['-v']).error) throw new Error('nginx is not installed: install nginx (apt-get install nginx) to check the documented configuration');
    const dir = mkdtempSync(join(tmpdir(), 'keel-docs-nginx-'));
    try {
      const cert = join(dir, 'cert.pem');
      const key = join(dir, 'key.pem');
      execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=app.example.com', '-days', '1', '-keyout', key, '-out', cert], { stdio: 'ignore' });
      const server = block.replace('/etc/ssl/app.example.com.pem', cert).replace('/etc/ssl/app.example.com.key', key);
      const conf = join(dir, 'nginx.conf');
      writeFileSync(conf, `pid ${join(dir, 'nginx.pid')};\nerror_log ${join(dir, 'error.log')};\nevents {}\nhttp {\naccess_log off;\n${server}\n}\n`);
      const check = spawnSync('nginx', ['-t', '-q', '-p', dir, '-c', conf], { encoding: 'utf8' });
      assert.equal(check.status, 0, check.stderr);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('quotes the line the router makes its 404 on, in the README\'s reference request and the errors guide', () => {
    const source = readFileSync(join(REPO_ROOT, 'src', 'routing', 'router-listener.ts'), 'utf8').split('\n');
    const line = source.findIndex((text) => text.includes('new NotFoundHttpException(routingErrorMessage(')) + 1;
    assert.ok(line > 0, 'the 404 of a routing miss is made in router-listener.ts');
    const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
    const quoted = [...readme.matchAll(/router-listener\.ts(?::| line )(\d+)/g), ...readDoc('errors-and-pages.md').matchAll(/router-listener\.ts(?::| line )(\d+)/g)];
    assert.ok(quoted.length >= 4, 'the README and the errors guide quote the line');
    for (const [text, number] of quoted) assert.equal(Number(number), line, `${text} names another line than ${line}`);
  });

  it('maps every kernel event name of keel in the Symfony table', () => {
    const table = readDoc('from-symfony.md');
    for (const name of ['request', 'controller', 'controllerArguments', 'view', 'response', 'exception', 'finishRequest', 'terminate']) {
      assert.match(table, new RegExp(`\\| \`${name}\` → `), `kernel event ${name}`);
    }
  });
});
