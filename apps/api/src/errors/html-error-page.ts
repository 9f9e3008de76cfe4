import type { FastifyRequest } from 'fastify';

/** Fastify route config key of a route that answers its errors as a page of its own, never as JSON (a customer's browser reads it). */
export const HTML_ERROR_PAGE = 'paysignHtmlErrorPage';

/** What an HTML route shows for an error: the page, and the headers it is sent with. */
export type HtmlErrorPage = (error: { status: number; message: string; requestId: string }) => { html: string; headers: Record<string, string> };

export function htmlErrorPageOf(request: FastifyRequest): HtmlErrorPage | undefined {
  return request.routeOptions.config?.[HTML_ERROR_PAGE as never] as HtmlErrorPage | undefined;
}
