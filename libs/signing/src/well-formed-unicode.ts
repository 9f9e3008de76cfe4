/** True when the string has no unpaired surrogate, so it has a UTF-8 form. */
export function isWellFormedUnicode(text: string): boolean {
  return (text as string & { isWellFormed(): boolean }).isWellFormed();
}
