import { createHash } from 'node:crypto';
import MarkdownIt from 'markdown-it';
import type { RenderRule } from 'markdown-it/lib/renderer.mjs';
import type Token from 'markdown-it/lib/token.mjs';
import { API_PREFIX, ROUTES } from '../http/routes';

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

/** The only style the page's Content-Security-Policy allows. */
export const PROTOCOL_STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;

/**
 * docs/protocol.md as a page of the service, so that a merchant reaches it
 * from the API reference. A link to the vectors points where the service
 * serves them; other links into the repository become their plain text, since
 * a merchant cannot follow them from here. Mermaid blocks stay as their
 * source: the page runs no script.
 */
export function renderProtocolPage(markdown: string): string {
  const md = new MarkdownIt({ html: false, linkify: false });
  const renderToken: RenderRule = (tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options);
  const [linkOpen, linkClose] = [md.renderer.rules.link_open ?? renderToken, md.renderer.rules.link_close ?? renderToken];
  // Whether each open link was kept, so that its closing tag is kept or dropped with it.
  const kept: boolean[] = [];
  md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
    const token = tokens[idx] as Token;
    const href = token.attrGet('href') ?? '';
    if (href.endsWith('libs/signing/vectors.json')) token.attrSet('href', ROUTES.vectors);
    const keep = href.endsWith('libs/signing/vectors.json') || /^(https?:|#)/.test(href) || href.startsWith(`/${API_PREFIX}/`);
    kept.push(keep);
    return keep ? linkOpen(tokens, idx, options, env, self) : '';
  };
  md.renderer.rules.link_close = (tokens, idx, options, env, self) => (kept.pop() ? linkClose(tokens, idx, options, env, self) : '');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>The request-signing protocol · Paysign</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<nav><a href="${ROUTES.docs}">API reference</a> · <a href="${ROUTES.contract}">openapi.yaml</a> · <a href="${ROUTES.vectors}">vectors.json</a></nav>
${md.render(markdown)}
</main>
</body>
</html>
`;
}
