import { ROUTES } from '../http/routes';
import { renderMarkdownPage } from './markdown-page';

/**
 * docs/runbooks.md as a page of the service: each alert's `runbook_url`
 * names its section by the alert's name in lower case, the anchor GitHub
 * gives the heading, which the page gives it too. Links into the repository
 * (operations.md and the others) become their plain text; the runbook's
 * link texts name the file and section they point to.
 */
export function renderRunbooksPage(markdown: string): string {
  return renderMarkdownPage(markdown, {
    title: 'Runbooks · Paysign payment service',
    nav: [
      ['Runbooks', ROUTES.runbooks],
      ['API reference', ROUTES.docs],
      ['The signing protocol', ROUTES.protocol],
    ],
  });
}
