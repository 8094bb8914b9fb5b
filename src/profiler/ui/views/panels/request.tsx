/** @jsxRuntime automatic @jsxImportSource preact */
import { MAX_SHOWN_BYTES } from '../../../collectors/post-parameters.js';
import type { ConfigData } from '../../../collectors/config-collector.js';
import type { RequestData } from '../../../collectors/request-collector.js';
import { requestContentText, type RequestContent } from '../../../collectors/request-content.js';
import { shownContext } from '../../../../logging/shown-context.js';
import type { RequestOrigin } from '../../../../http/request.js';
import { originProblemMessage } from '../../../../proxy/origin-problem.js';
import { DataTable } from '../data-table.js';
import type { PanelProps } from './panel.js';

/** Symfony's request panel: parameters, headers, cookies, attributes, session, origin, family (parent and sub-requests). */
export function RequestPanel({ profile, data, base }: PanelProps<RequestData>) {
  // Recorded with the configuration snapshot (see ConfigData), shown here as the reference shows it.
  const { serverParameters, dotenvParameters } = (profile.collectors['config'] as ConfigData | undefined) ?? {};
  const link = (token: string) => <a href={`${base}/_profiler/${token}`}>{token}</a>;
  return (
    <div>
      <h2>Request / Response</h2>
      {data.forwardToken !== undefined && (
        <p>
          Forwarded to ErrorController ({link(data.forwardToken)})
        </p>
      )}
      {data.redirect !== undefined && (
        <p>
          Redirected from {data.redirect.method} {data.redirect.route} ({link(data.redirect.token)})
        </p>
      )}
      <DataTable
        rows={{
          Method: data.method,
          URL: data.url,
          Route: data.route ?? 'n/a',
          Controller: data.controller,
          Status: `${data.statusCode} ${data.statusText}`,
          'Request body size': bodySizeText(data),
        }}
      />
      <h3>GET Parameters</h3>
      <DataTable rows={data.query} />
      <h3>POST Parameters</h3>
      {data.postParameters === 'unread' || data.postParameters === 'failed' ? (
        <p class="empty">{FORM_NOT_READ[data.postParameters]}</p>
      ) : data.postParameters === 'tooLarge' ? (
        <p class="empty">The form's fields are over {MAX_SHOWN_BYTES / 1024} KiB: not recorded.</p>
      ) : (
        <DataTable rows={data.postParameters ?? {}} empty="No POST parameters" />
      )}
      <h3>Uploaded Files</h3>
      {data.files === 'unread' || data.files === 'failed' ? (
        <p class="empty">{FORM_NOT_READ[data.files]}</p>
      ) : data.files === 'tooLarge' ? (
        <p class="empty">The files' names and types are over {MAX_SHOWN_BYTES / 1024} KiB: not recorded.</p>
      ) : (
        <DataTable rows={(data.files ?? []).map(({ field, filename, type, size }): [string, string] => [field, `${filename} (${type}, ${size} bytes)`])} empty="No files were uploaded" />
      )}
      <h3>Request Attributes</h3>
      {/* Made JSON-safe and masked here too: a record is readable before lateCollect has done it. */}
      <DataTable
        rows={[
          ['route', data.route ?? 'n/a'],
          ['route_params', data.routeParams],
          ['controller', data.controller],
          ['request_type', data.requestType],
          ...Object.entries(shownContext(data.attributes ?? {})),
        ]}
      />
      <h3>Request Headers</h3>
      <DataTable rows={data.headers} />
      <h3>Request Content</h3>
      <RequestContentView content={data.content} />
      <h3>Cookies</h3>
      <DataTable rows={data.cookies} empty="No request cookies" />
      <h3>Session</h3>
      <h4>Session Metadata</h4>
      <p class="empty">No session metadata</p>
      <h4>Session Attributes</h4>
      <p class="empty">No session attributes</p>
      <h4>Session Usage</h4>
      <div class="metric">
        <span class="value">{data.sessionUsages}</span>
        <span class="label">Usages</span>
      </div>
      <div class="metric">
        <span class="value">{data.statelessCheck ? 'yes' : 'no'}</span>
        <span class="label">Stateless check enabled</span>
      </div>
      {data.sessionUsages === 0 && <p class="empty">Session not used.</p>}
      <h3>Server Parameters</h3>
      {/* The .env files' variables apart, as the reference lists them: keel keeps them out of process.env. */}
      <h4>Defined in .env</h4>
      {dotenvParameters === undefined ? <p class="empty">Not recorded for this request.</p> : <DataTable rows={dotenvParameters} empty="(no data)" />}
      <h4>Defined as regular env variables</h4>
      {serverParameters === undefined ? <p class="empty">Not recorded for this request.</p> : <DataTable rows={serverParameters} empty="No environment variables" />}
      <h3>Client and Proxy</h3>
      <DataTable
        rows={{
          client_ip: data.clientIp,
          remote_address: data.remoteAddress,
          ...connectionRows(data),
          ...(data.origin === undefined
            ? {}
            : {
                scheme: `${data.origin.scheme} (from ${data.origin.sources.scheme})`,
                host: `${data.origin.host} (from ${data.origin.sources.host})`,
                port: `${data.origin.port} (from ${data.origin.sources.port})`,
                client_ips: `${data.origin.clientIps.join(', ')} (from ${data.origin.sources.clientIp})`,
                via_trusted_proxy: data.origin.viaTrustedProxy ? 'yes' : 'no',
                ...originNotes(data.origin),
              }),
        }}
      />
      {profile.parent !== undefined && (
        <>
          <h3>Parent Request</h3>
          <p>{link(profile.parent)}</p>
        </>
      )}
      {profile.children.length > 0 && (
        <>
          <h3>Sub Requests {profile.children.length}</h3>
          <ul>
            {profile.children.map((token) => (
              <li>{link(token)}</li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

const FORM_NOT_READ = {
  unread: 'The application did not read the form body: the profiler does not read it in its place.',
  failed: 'Reading the form body failed (over the body limit, cut off, or the client went away): not recorded.',
};

// A chunked body declares no size, and the profiler does not read one the application left unread.
function bodySizeText({ bodySize, content, postParameters, files }: RequestData): string {
  if (bodySize !== undefined) return `${bodySize} bytes`;
  return content !== undefined || postParameters !== undefined || files !== undefined ? 'Unknown: sent in chunks, not read' : 'No content';
}

const WITHHELD: Record<string, string> = {
  form: 'A form: its fields are under POST Parameters.',
  unread: 'The application did not read the body: the profiler does not read it in its place.',
  failed: 'Reading the body failed (over the body limit, cut off, or the client went away): not recorded.',
  tooLarge: `The body is over ${MAX_SHOWN_BYTES / 1024} KiB: not recorded.`,
  tooDeep: 'The JSON body is nested too deep to be shown: not recorded.',
  binary: 'The body is not text: not shown.',
  secret: 'The body names a secret (a password, a token, a key…) in a format whose values cannot be masked: not recorded.',
};

function RequestContentView({ content }: { content: RequestContent }) {
  if (content === undefined) return <p class="empty">No content</p>;
  if (!('withheld' in content)) return <pre>{requestContentText(content)}</pre>;
  const size = content.bytes === undefined ? '' : ` (${content.bytes} bytes)`;
  return (
    <p class="empty">
      {WITHHELD[content.withheld]}
      {size}
    </p>
  );
}

// The connection's own facts, as the socket gave them, whatever the proxy headers say.
// A prefix goes before every URL keel writes. A refused origin (the 400's) leaves a fallback in the rows
// above, which must not read as what the client or the proxy sent.
function originNotes(origin: RequestOrigin): Record<string, string> {
  const rows: Record<string, string> = {};
  if (origin.prefix !== '') rows['prefix'] = `${origin.prefix} (from X-Forwarded-Prefix)`;
  const problem = originProblemMessage(origin);
  if (problem !== undefined) rows['refused'] = `${problem} The rows above are what keel used instead.`;
  return rows;
}

function connectionRows({ remotePort, localPort, httpVersion, encrypted }: RequestData): Record<string, string> {
  const rows: Record<string, string> = {};
  if (remotePort !== undefined) rows['remote_port'] = String(remotePort);
  if (localPort !== undefined) rows['server_port'] = String(localPort);
  if (httpVersion !== undefined) rows['protocol'] = `HTTP/${httpVersion}${encrypted === true ? ' over TLS' : ''}`;
  return rows;
}
