/**
 * What a payout or batch a dashboard member created records as its
 * creator (`created_by`), beside the API keys that create through the
 * merchant API: the person, by their email in lower case, so that the same
 * person under another member id, or through a key they made, is still
 * known as its creator (four eyes).
 */
export const memberIdentity = (email: string): string => `dashboard:${email.toLowerCase()}`;
