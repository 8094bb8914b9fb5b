/** @jsxRuntime automatic @jsxImportSource preact */
import { renderToString } from 'preact-render-to-string';

/** The body of a redirect, as Symfony's RedirectResponse writes it: a meta refresh and a link. */
export function renderRedirectPage(url: string): string {
  return (
    '<!DOCTYPE html>\n' +
    renderToString(
      <html>
        <head>
          <meta charset="UTF-8" />
          <meta http-equiv="refresh" content={`0;url='${url}'`} />
          <title>Redirecting to {url}</title>
        </head>
        <body>
          Redirecting to <a href={url}>{url}</a>.
        </body>
      </html>,
    )
  );
}
