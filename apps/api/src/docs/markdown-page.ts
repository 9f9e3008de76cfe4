import { createHash } from 'node:crypto';
import MarkdownIt from 'markdown-it';
import type { RenderRule } from 'markdown-it/lib/renderer.mjs';
import type Token from 'markdown-it/lib/token.mjs';
import { API_PREFIX } from '../http/routes';
import { HeadingAnchors } from './heading-anchors';

const STYLE = `
body{margin:0;font:16px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;background:#fff}
main{max-width:52rem;margin:0 auto;padding:1rem 1.25rem 4rem}
nav{font-size:.95rem;margin:.5rem 0 1.5rem}
h1,h2,h3{line-height:1.25}h2{margin-top:2.5rem;border-bottom:1px solid #e5e7eb;padding-bottom:.25rem}
a{color:#0b5cad}
code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.9em;background:#f3f4f6;padding:.1em .3em;border-radius:4px}
pre{background:#f3f4f6;padding:.75rem 1rem;overflow-x:auto;border-radius:6px}pre code{background:none;padding:0}
table{border-collapse:collapse;display:block;overflow-x:auto;margin:1rem 0}th,td{border:1px solid #d0d4da;padding:.35rem .6rem;vertical-align:top;text-align:left}
th{background:#f3f4f6}
`;

/**
 * The Content-Security-Policy of every page rendered here: its one style,
 * by hash; no script, no frame, no form, nothing loaded from elsewhere.
 */
export const DOCS_PAGE_CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; img-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`;

export interface MarkdownPageOptions {
  /** The page's title. */
  title: string;
  /** The links above the text, as [text, href]. */
  nav: ReadonlyArray<readonly [string, string]>;
  /** Where a link into the repository is served, if the service serves it; undefined (the default for every link) keeps only its text. */
  servedAt?: (href: string) => string | undefined;
}

/**
 * A document of docs/ as a page of the service. Headings carry GitHub's
 * anchors as their ids, so a link to `file.md#section` made for GitHub
 * lands on the same section here. Links stay when a reader can follow them
 * from here (the web, the page itself, the service's own routes, or what
 * `servedAt` maps); other links into the repository become their plain text.
 * Markdown's raw HTML is not rendered, and Mermaid blocks stay as their
 * source: the page runs no script.
 */
export function renderMarkdownPage(markdown: string, options: MarkdownPageOptions): string {
  const md = new MarkdownIt({ html: false, linkify: false });
  const renderToken: RenderRule = (tokens, idx, opts, _env, self) => self.renderToken(tokens, idx, opts);
  const [linkOpen, linkClose, headingOpen] = [md.renderer.rules.link_open ?? renderToken, md.renderer.rules.link_close ?? renderToken, md.renderer.rules.heading_open ?? renderToken];
  // Whether each open link was kept, so that its closing tag is kept or dropped with it.
  const kept: boolean[] = [];
  md.renderer.rules.link_open = (tokens, idx, opts, env, self) => {
    const token = tokens[idx] as Token;
    const href = token.attrGet('href') ?? '';
    const served = options.servedAt?.(href);
    if (served !== undefined) token.attrSet('href', served);
    const keep = served !== undefined || /^(https?:|#)/.test(href) || href.startsWith(`/${API_PREFIX}/`);
    kept.push(keep);
    return keep ? linkOpen(tokens, idx, opts, env, self) : '';
  };
  md.renderer.rules.link_close = (tokens, idx, opts, env, self) => (kept.pop() ? linkClose(tokens, idx, opts, env, self) : '');
  const anchors = new HeadingAnchors();
  md.renderer.rules.heading_open = (tokens, idx, opts, env, self) => {
    (tokens[idx] as Token).attrSet('id', anchors.next(plainText(tokens[idx + 1])));
    return headingOpen(tokens, idx, opts, env, self);
  };
  const nav = options.nav.map(([text, href]) => `<a href="${escapeHtml(href)}">${escapeHtml(text)}</a>`).join(' · ');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<nav>${nav}</nav>
${md.render(markdown)}
</main>
</body>
</html>
`;
}

/** A heading's text as GitHub reads it for its anchor: the words and the code, without the markup. */
function plainText(inline: Token | undefined): string {
  return (inline?.children ?? []).map((child) => (child.type === 'text' || child.type === 'code_inline' ? child.content : child.type === 'softbreak' ? ' ' : '')).join('');
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
