import { InvalidArgumentError, Option, type Command } from 'commander';
import { Request } from '../../http/request.js';
import { Matcher } from '../../routing/matcher.js';
import { buildQuietApp, type AppCommandOptions } from '../app-context.js';
import { ReportedError, UsageError } from '../cli-error.js';
import type { CliIo } from '../cli-io.js';
import { reportMatch, statusLine, type MatchReport } from '../match-report.js';
import { formatOption, toJson, type OutputFormat } from '../output-format.js';
import { createStyle, type Style } from '../style.js';
import { renderTable } from '../table.js';
import { appOptions } from './app-options.js';
import { parseAuthority } from '../../proxy/host-header.js';
import { createOriginResolver, type ResolvedOrigin } from '../../proxy/trusted-proxies.js';
import { oneLine } from '../../logging/one-line.js';

interface RouterMatchOptions extends AppCommandOptions {
  method: string;
  host: string;
  scheme: 'http' | 'https';
  referer?: string;
  format: OutputFormat;
}

export function registerRouterMatchCommand(program: Command, io: CliIo): void {
  const command = program
    .command('router:match')
    .description('say which route matches a request, or why each route does not, and what keel would answer')
    .argument('<path>', 'the request path, still percent-encoded (a query string is allowed and ignored by routing)')
    .option('--method <method>', 'request method', parseMethod, 'GET')
    .option('--host <host>', 'Host header, with a port if not the default', parseHost, 'localhost')
    .addOption(new Option('--scheme <scheme>', 'request scheme').choices(['http', 'https']).default('http'))
    .option('--referer <url>', 'Referer header (the 404 message quotes it)')
    .addOption(formatOption())
    .addHelpText('after', '\nExit code 0 when a route matches or the router redirects, 1 when keel would answer 404 (no route, or a route without a controller) or 405 (or 400 for a host TRUSTED_HOSTS refuses).');
  appOptions(command).action(async (path: string, options: RouterMatchOptions) => {
    if (!path.startsWith('/')) throw new UsageError(`the path must start with "/" (got "${path}")`);
    // What a request line cannot carry, the server refuses with a 400 before any routing.
    const unsendable = /[^\x21-\x7e]/.exec(path)?.[0];
    if (unsendable !== undefined) {
      throw new UsageError(`the path holds ${JSON.stringify(unsendable)}, which a request line cannot carry (the server would answer 400 Bad Request): percent-encode it, as ${encodeURIComponent(unsendable)}`);
    }
    const app = await buildQuietApp(io, options);
    let report: MatchReport;
    try {
      const headers: Record<string, string> = { host: options.host };
      if (options.referer !== undefined) headers.referer = options.referer;
      // The host checked as the server checks it, TRUSTED_HOSTS included (the request comes from no proxy).
      const resolveOrigin = createOriginResolver({ trustedHosts: app.config.trustedHosts });
      const request = new Request({ method: options.method, target: path, headers, encrypted: options.scheme === 'https', resolveOrigin });
      const origin: ResolvedOrigin = request.origin;
      if (origin.problem === 'untrusted-host') return refuseUntrustedHost(io, options, path, origin.problemDetail ?? options.host);
      report = reportMatch(new Matcher(app.routes), request);
    } finally {
      await app.close();
    }
    io.stdout.write(options.format === 'json' ? toJson(report) : renderReport(report, createStyle(io.stdout, io.env)));
    if (report.verdict.kind === 'notFound' || report.verdict.kind === 'noController' || report.verdict.kind === 'methodNotAllowed') throw new ReportedError();
  });
}

// The server answers 400 before any routing to a host TRUSTED_HOSTS does not list.
function refuseUntrustedHost(io: CliIo, options: RouterMatchOptions, path: string, host: string): never {
  const request = { method: options.method, url: `${options.scheme}://${options.host}${path}` };
  const verdict = { kind: 'badRequest', status: 400, message: `Untrusted Host "${host}".` };
  const style = createStyle(io.stdout, io.env);
  io.stdout.write(options.format === 'json' ? toJson({ request, verdict }) : `${style.bold(`${request.method} ${request.url}`)}\n\n${style.red(statusLine(400))}\n${verdict.message} (TRUSTED_HOSTS lists no pattern it matches)\n`);
  throw new ReportedError();
}

// An HTTP method is a token (RFC 9110 §5.6.2): M-SEARCH is one too.
function parseMethod(value: string): string {
  if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(value)) throw new InvalidArgumentError('a method is an HTTP token, e.g. GET, POST or M-SEARCH.');
  return value.toUpperCase();
}

// The server answers 400 to a Host that is no host name: there is no routing to report for it.
function parseHost(value: string): string {
  if (parseAuthority(value) === undefined) throw new InvalidArgumentError('not a valid host name (the server would answer 400 Invalid Host).');
  return value;
}

const LEVELS = { match: 'matches', almost: 'almost', none: 'no' } as const;

function renderReport({ request, trace, verdict }: MatchReport, style: Style): string {
  let out = `${style.bold(`${request.method} ${request.url}`)}\n`;
  let previous: { path: string; scheme: string } | undefined;
  trace.attempts.forEach((attempt, index) => {
    const why = previous === undefined ? 'as requested' : attempt.path !== previous.path ? 'trailing slash toggled' : 'with the scheme a route requires';
    out += `\n${style.yellow(`Pass ${index + 1}`)}: path ${attempt.path}, scheme ${attempt.scheme} (${why})\n`;
    out += renderTable(['Route', 'Verdict', 'Why'], attempt.routes.map((route) => [route.name, LEVELS[route.level], route.message]), style);
    previous = attempt;
  });
  out += '\n';
  switch (verdict.kind) {
    case 'match':
      out += `${style.green(`Route "${verdict.route}" matches`)}${formatParams(verdict.params)}\n`;
      break;
    case 'redirect':
      out += `${style.green(`${statusLine(verdict.status)}`)} to ${verdict.location}\n`;
      out += `Route "${verdict.route}" matches ${verdict.reason === 'trailingSlash' ? 'once the trailing slash is toggled' : 'in the scheme it requires'}: GET and HEAD are redirected.\n`;
      break;
    case 'noController':
      out += `${style.red(statusLine(verdict.status))}\nRoute "${verdict.route}" matches${formatParams(verdict.params)} but has no controller: ${verdict.message}\n`;
      break;
    case 'methodNotAllowed':
      out += `${style.red(statusLine(verdict.status))}, Allow: ${verdict.allow.join(', ')}\n${verdict.message}\n`;
      break;
    case 'notFound':
      out += `${style.red(statusLine(verdict.status))}\n${verdict.message}\n`;
      if (verdict.inner !== '') out += style.dim(`Caused by: ${verdict.inner}`) + '\n';
      break;
  }
  return out;
}

// The values are decoded from the path: `%1b%5b2J` is an escape sequence that would act on the terminal.
function formatParams(params: Record<string, string>): string {
  const entries = Object.entries(params);
  return entries.length === 0 ? '' : ` with ${entries.map(([name, value]) => oneLine(`${name}=${value}`)).join(', ')}`;
}
