const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when the string has no unpaired surrogate, so it has a UTF-8 form. (`String#isWellFormed` needs Node 20.) */
export function isWellFormedUnicode(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}
