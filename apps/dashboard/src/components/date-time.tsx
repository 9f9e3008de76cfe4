/** A timestamp shown in the reader's locale, with the exact instant in the markup. */
export function DateTime({ value }: { value: string | null | undefined }) {
  if (!value) return <>—</>;
  const date = new Date(value);
  return <time dateTime={value}>{date.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' })}</time>;
}
