/** Injection token of the service's clock. Tests inject a fixed or offset one. */
export const Clock = Symbol('Clock');

/** Milliseconds since the epoch. */
export type Clock = () => number;
