import { ROUTES } from '../http/routes';
import { renderMarkdownPage } from './markdown-page';

/**
 * docs/protocol.md as a page of the service, so that a merchant reaches it
 * from the API reference. A link to the vectors points where the service
 * serves them; other links into the repository become their plain text, since
 * a merchant cannot follow them from here.
 */
export function renderProtocolPage(markdown: string): string {
  return renderMarkdownPage(markdown, {
    title: 'The request-signing protocol · Paysign',
    nav: [
      ['API reference', ROUTES.docs],
      ['openapi.yaml', ROUTES.contract],
      ['vectors.json', ROUTES.vectors],
    ],
    servedAt: (href) => (href.endsWith('libs/signing/vectors.json') ? ROUTES.vectors : undefined),
  });
}
