import type { ErrorObject } from 'ajv';

/** Ajv gives a rule of the validated schema itself relative to it (`#/required`): this names it in the contract. */
function absoluteSchemaPath(schemaPath: string, schemaBase: string | undefined): string {
  if (schemaBase === undefined || schemaPath.startsWith('#/components/') || schemaPath.startsWith('#/paths/') || schemaPath.startsWith('#/webhooks/')) return schemaPath;
  return `#${schemaBase}${schemaPath.slice(1)}`;
}

/**
 * One schema error in words that name the value's path, the property at fault
 * and the schema rule it broke (`schemaBase`, default none: the JSON pointer
 * of the validated schema in the contract, for a rule of that schema itself), for example
 * `/data/0/memo is not a property of the schema (additionalProperties: false at #/components/schemas/Payin/additionalProperties)`.
 */
export function describeViolation(error: ErrorObject, options: { schemaBase?: string } = {}): string {
  const at = error.instancePath || '(body)';
  const rule = `at ${absoluteSchemaPath(error.schemaPath, options.schemaBase)}`;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties':
      return `${error.instancePath}/${String(params.additionalProperty)} is not a property of the schema (additionalProperties: false ${rule})`;
    case 'required':
      return `${error.instancePath}/${String(params.missingProperty)} is required and missing (${rule})`;
    case 'enum':
      return `${at} must be one of ${JSON.stringify(params.allowedValues)} (${rule})`;
    default:
      return `${at} ${error.message ?? 'is invalid'} (${rule})`;
  }
}
