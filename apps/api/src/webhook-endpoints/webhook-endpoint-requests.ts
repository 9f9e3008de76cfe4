import { SCHEMAS, type CreateWebhookEndpointRequest, type FieldError, type RollWebhookEndpointSecretRequest, type UpdateWebhookEndpointRequest } from '@paysign/contracts';
import { IsBoolean, IsDefined, IsInt, IsOptional, IsString, Length, Matches, Max, MaxLength, Min } from 'class-validator';

// Every pattern and limit below is read from the contract (openapi/payment-api.yaml).
const SELECTION = SCHEMAS.WebhookEventSelection;
const SELECTION_PATTERN = new RegExp(SELECTION.pattern);
const NOTE = SCHEMAS.DisplayNote;
const NOTE_PATTERN = new RegExp(NOTE.pattern);
const URL_MAX = SCHEMAS.WebhookEndpointUrl.maxLength;
const EXPIRES_IN = SCHEMAS.RollWebhookEndpointSecretRequest.properties.expiresIn;
const EVENT_TYPES: readonly string[] = SCHEMAS.WebhookEventType.enum;
export const CREATE_ENDPOINT_FIELDS = Object.keys(SCHEMAS.CreateWebhookEndpointRequest.properties) as ReadonlyArray<keyof CreateWebhookEndpointRequest>;
export const UPDATE_ENDPOINT_FIELDS = Object.keys(SCHEMAS.UpdateWebhookEndpointRequest.properties) as ReadonlyArray<keyof UpdateWebhookEndpointRequest>;
export const ROLL_SECRET_FIELDS = Object.keys(SCHEMAS.RollWebhookEndpointSecretRequest.properties) as ReadonlyArray<keyof RollWebhookEndpointSecretRequest>;
/** A roll's overlap when the request names none: a day. */
export const DEFAULT_ROLL_EXPIRES_IN_SECONDS = 86_400;
/** An endpoint's id, as the contract gives it. */
export const ENDPOINT_ID_PATTERN = new RegExp(SCHEMAS.WebhookEndpointId.pattern);

const SELECTION_RULE = 'enabledEvents must be event types separated by commas without spaces, such as payin.successful,refund.failed, or * alone for every type.';
const noteRule = `description must be ${NOTE.minLength} to ${NOTE.maxLength} characters, holding a character other than white space.`;

export class CreateWebhookEndpointDto implements CreateWebhookEndpointRequest {
  @MaxLength(URL_MAX, { message: `url must be at most ${URL_MAX} characters.` })
  @IsString({ message: 'url must be a string.' })
  @IsDefined({ message: 'url is required: the https URL the events are sent to.' })
  url!: string;

  @Matches(SELECTION_PATTERN, { message: SELECTION_RULE })
  @MaxLength(SELECTION.maxLength, { message: `enabledEvents must be at most ${SELECTION.maxLength} characters.` })
  @IsString({ message: SELECTION_RULE })
  @IsDefined({ message: 'enabledEvents is required: the event types the endpoint receives, comma-separated, or *.' })
  enabledEvents!: string;

  @Matches(NOTE_PATTERN, { message: noteRule })
  @Length(NOTE.minLength, NOTE.maxLength, { message: noteRule })
  @IsString({ message: 'description must be a string.' })
  @IsOptional()
  description?: string;

  @IsBoolean({ message: 'enabled must be true or false.' })
  @IsOptional()
  enabled?: boolean;
}

export class UpdateWebhookEndpointDto implements UpdateWebhookEndpointRequest {
  @MaxLength(URL_MAX, { message: `url must be at most ${URL_MAX} characters.` })
  @IsString({ message: 'url must be a string.' })
  @IsOptional()
  url?: string;

  @Matches(SELECTION_PATTERN, { message: SELECTION_RULE })
  @MaxLength(SELECTION.maxLength, { message: `enabledEvents must be at most ${SELECTION.maxLength} characters.` })
  @IsString({ message: SELECTION_RULE })
  @IsOptional()
  enabledEvents?: string;

  // An empty string removes it; the display-text check of validateBody sees to the rest.
  @MaxLength(NOTE.maxLength, { message: noteRule })
  @IsString({ message: 'description must be a string.' })
  @IsOptional()
  description?: string;

  @IsBoolean({ message: 'enabled must be true or false.' })
  @IsOptional()
  enabled?: boolean;
}

export class RollWebhookEndpointSecretDto implements RollWebhookEndpointSecretRequest {
  @Max(EXPIRES_IN.maximum, { message: `expiresIn must be at most ${EXPIRES_IN.maximum} seconds (7 days).` })
  @Min(EXPIRES_IN.minimum, { message: 'expiresIn must be 0 (the previous secret ends at once) or more seconds.' })
  @IsInt({ message: 'expiresIn must be a whole number of seconds.' })
  @IsOptional()
  expiresIn?: number;
}

/** The event types of a selection, or the field error that refuses it: a type the contract does not know, one given twice. */
export function parsedSelection(selection: string): { events: string[] } | { error: FieldError } {
  const events = selection.split(',');
  const unknown = events.filter((event) => event !== '*' && !EVENT_TYPES.includes(event));
  if (unknown.length > 0) return { error: { field: 'enabledEvents', code: 'enum', message: `enabledEvents names ${unknown.join(', ')}, which ${unknown.length === 1 ? 'is not an event type' : 'are not event types'}; the types are ${EVENT_TYPES.join(', ')}, or * for all.` } };
  if (new Set(events).size !== events.length) return { error: { field: 'enabledEvents', code: 'unique', message: 'enabledEvents names a type twice; name each once.' } };
  return { events };
}
