/** RFC 4180 records: fields split on commas outside quotes, records on CRLF outside quotes, `""` a quote. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') field += text[i++];
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    }
    else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else field += c;
  }
  if (field !== '' || record.length > 0) throw new Error(`the CSV does not end with CRLF: ${JSON.stringify(text.slice(-40))}`);
  return records;
}

/** The records after the header, each as an object by the header's names. */
export function csvObjects(text: string): Array<Record<string, string>> {
  const [header = [], ...records] = parseCsv(text);
  return records.map((record) => Object.fromEntries(header.map((name, i) => [name, record[i] ?? ''])));
}
