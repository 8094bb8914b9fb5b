import { escapeHtmlText } from '../../internal/html-template.js';

/**
 * The body of a redirect, byte for byte as Symfony's RedirectResponse writes it: a meta refresh and a
 * link, the URL escaped as its `htmlspecialchars($url, ENT_QUOTES)` escapes it (`'` too, since the
 * refresh puts the URL between single quotes).
 */
export function renderRedirectPage(url: string): string {
  const target = escapeHtmlText(url, { quotes: true });
  return `<!DOCTYPE html>
<html>
    <head>
        <meta charset="UTF-8" />
        <meta http-equiv="refresh" content="0;url='${target}'" />

        <title>Redirecting to ${target}</title>
    </head>
    <body>
        Redirecting to <a href="${target}">${target}</a>.
    </body>
</html>`;
}
