import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { readFlatJsonObject } from '@paysign/signing';
import type { FastifyRequest } from 'fastify';

/**
 * The body as the plain object parsed from exactly the bytes the signature
 * check verified. The check has already proven them a flat JSON object.
 */
export const VerifiedBody = createParamDecorator((_data: unknown, context: ExecutionContext): Record<string, unknown> => {
  const request = context.switchToHttp().getRequest<FastifyRequest>();
  const bytes = request.verifiedBody;
  if (bytes === undefined) throw new Error('VerifiedBody used on an operation that the signature check does not cover');
  return bytes.length === 0 ? {} : (JSON.parse(bytes.toString('utf8')) as Record<string, unknown>);
});

/**
 * A field of the verified body as its text was sent: a number keeps its
 * source lexeme (`1000.50`, `1e-7`), which the parsed value has lost.
 */
export function verifiedFieldText(request: FastifyRequest, field: string): string | undefined {
  const bytes = request.verifiedBody;
  if (bytes === undefined || bytes.length === 0) return undefined;
  return readFlatJsonObject(bytes).find((f) => f.key === field)?.text ?? undefined;
}
