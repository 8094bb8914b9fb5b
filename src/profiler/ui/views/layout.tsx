import type { ComponentChildren, VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';

export interface LayoutProps {
  title?: string;
  /** Path prefix for links: the trusted X-Forwarded-Prefix, '' without a proxy. */
  base: string;
  children: ComponentChildren;
}

/** The frame of every profiler page: the title, the shortcuts (Last 10, Latest), the page body. */
export function Layout({ title = 'Symfony Profiler', base, children }: LayoutProps) {
  return (
    <html lang="en">
      <head>
        <meta charset="UTF-8" />
        <meta name="robots" content="noindex,nofollow" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <title>{title}</title>
        <link rel="stylesheet" href={`${base}/_profiler/assets/profiler.css`} />
      </head>
      <body>
        <header>
          <a href={`${base}/_profiler/search?limit=10`}>Last 10</a>
          <a href={`${base}/_profiler/latest`}>Latest</a>
        </header>
        {children}
      </body>
    </html>
  );
}

export function renderPage<P>(page: VNode<P>): string {
  return `<!DOCTYPE html>\n${renderToString(page)}\n`;
}
