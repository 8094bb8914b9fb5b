/** @jsxRuntime automatic @jsxImportSource preact */
import { readFileSync } from 'node:fs';
import { renderToString } from 'preact-render-to-string';
import { BoundedMap } from '../../internal/bounded-map.js';

const CSS = readFileSync(new URL('../assets/error-page.css', import.meta.url), 'utf8');

export interface ErrorPageProps {
  status: number;
  statusText: string;
}

/** The page shown when internals must stay hidden (Symfony's error.html.php): status only, no message. */
export function ErrorPage({ status, statusText }: ErrorPageProps) {
  return (
    <html lang="en">
      <head>
        <meta charset="UTF-8" />
        <meta name="robots" content="noindex,nofollow,noarchive" />
        <title>An Error Occurred: {statusText}</title>
        <style dangerouslySetInnerHTML={{ __html: CSS }} />
      </head>
      <body>
        <div class="container">
          <h1>Oops! An Error Occurred</h1>
          <h2>The server returned a "{`${status} ${statusText}`}".</h2>
          <p>
            Something is broken. Please let us know what you were doing when this error occurred. We will fix it as soon as
            possible. Sorry for any inconvenience caused.
          </p>
        </div>
      </body>
    </html>
  );
}

// The page depends on the status line only: rendered once per status, not once per 404 a crawler asks for.
// Keyed by the status number, its text checked: a key string made per request cost a hash and a lookup.
const MAX_RENDERED = 1000;
const rendered = new BoundedMap<number, { statusText: string; page: string }>(MAX_RENDERED);

export function renderErrorPage({ status, statusText }: ErrorPageProps): string {
  const held = rendered.get(status);
  if (held !== undefined && held.statusText === statusText) return held.page;
  const page = `<!DOCTYPE html>\n${renderToString(<ErrorPage status={status} statusText={statusText} />)}\n`;
  rendered.set(status, { statusText, page });
  return page;
}
