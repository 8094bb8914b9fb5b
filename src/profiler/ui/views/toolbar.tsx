import type { RequestData } from '../../collectors/request-collector.js';
import type { TimeData } from '../../collectors/time-collector.js';
import type { Profile } from '../../profile.js';

/**
 * The bar injected before `</body>` of HTML pages: status, route, time, a link to the record, and the
 * redirect that led here. No script: it works under any Content-Security-Policy that allows the stylesheet.
 */
export function Toolbar({ profile, profileUrl, stylesheetUrl }: { profile: Profile; profileUrl: (token: string) => string; stylesheetUrl: string }) {
  const request = profile.collectors.request as RequestData | undefined;
  const time = profile.collectors.time as TimeData | undefined;
  const status = profile.statusCode;
  const level = status >= 500 ? 'error' : status >= 400 ? 'warning' : 'success';
  return (
    <div id={`sfwdt${profile.token}`} class="sf-toolbar" role="region" aria-label="Symfony Web Debug Toolbar">
      <link rel="stylesheet" href={stylesheetUrl} />
      <div class="sf-toolbar-bar">
        <span class={`sf-toolbar-status sf-toolbar-status-${level}`}>{status}</span>
        <span class="sf-toolbar-item">{request?.route ?? 'n/a'}</span>
        {time !== undefined && <span class="sf-toolbar-item">{Math.round(time.duration)} ms</span>}
        {request?.redirect !== undefined && (
          <span class="sf-toolbar-item">
            Redirected from {request.redirect.route} (<a href={profileUrl(request.redirect.token)}>{request.redirect.token}</a>)
          </span>
        )}
        <a class="sf-toolbar-item" href={profileUrl(profile.token)}>
          {profile.token}
        </a>
      </div>
    </div>
  );
}
