/** Injection token of the validated AppConfig. */
export const AppConfigToken = Symbol('AppConfig');
