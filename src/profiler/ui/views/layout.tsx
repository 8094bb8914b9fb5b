/** @jsxRuntime automatic @jsxImportSource preact */
import { DebugMeta } from '../../../errors/views/debug-meta.js';
import type { ComponentChildren, VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';

export interface LayoutProps {
  title?: string;
  /** Path prefix for links: the trusted X-Forwarded-Prefix, '' without a proxy. */
  base: string;
  children: ComponentChildren;
}

/** The frame of every profiler page: the title, the shortcuts (Last 10, Latest, Search), the page body. */
export function Layout({ title = 'Symfony Profiler', base, children }: LayoutProps) {
  return (
    <html lang="en">
      <head>
        <DebugMeta />
        <title>{title}</title>
        <link rel="stylesheet" href={`${base}/_profiler/assets/profiler.css`} />
      </head>
      <body>
        <header>
          <strong class="brand">keel Profiler</strong>
          <a href={`${base}/_profiler/search?limit=10`}>Last 10</a>
          <a href={`${base}/_profiler/latest?type=request`}>Latest</a>
          <a href={`${base}/_profiler/empty/search/results?limit=10#search`}>Search</a>
        </header>
        {children}
      </body>
    </html>
  );
}

export function renderPage<P>(page: VNode<P>): string {
  return `<!DOCTYPE html>\n${renderToString(page)}\n`;
}
