/** Sent in the User-Agent. Kept equal to package.json's version by a test. */
export const SDK_VERSION = '0.1.0';
