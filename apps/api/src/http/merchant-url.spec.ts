import { isPlainAsciiUrl, normaliseMerchantUrl, type MerchantUrlField } from './merchant-url';

type Want = { url: string } | { code: string };

const FIELDS: MerchantUrlField[] = ['redirectUrl', 'notifyUrl'];

const CASES: Array<[string, { given: string; want: Want }]> = [
  ['a plain URL, unchanged', { given: 'https://shop.example.com/done?cart=a%20b&x=1#top', want: { url: 'https://shop.example.com/done?cart=a%20b&x=1#top' } }],
  ['an http URL (the mode decides elsewhere)', { given: 'http://localhost:8080/done', want: { url: 'http://localhost:8080/done' } }],
  ['a Cyrillic host, path and query', { given: 'https://пример.example/ünï?q=й', want: { url: 'https://xn--e1afmkfd.example/%C3%BCn%C3%AF?q=%D0%B9' } }],
  ['a path with й', { given: 'https://shop.example/заказ/й', want: { url: 'https://shop.example/%D0%B7%D0%B0%D0%BA%D0%B0%D0%B7/%D0%B9' } }],
  ['é then a combining acute in the path', { given: 'https://shop.example/e\u0301/é\u0301', want: { url: 'https://shop.example/e%CC%81/%C3%A9%CC%81' } }],
  ['é then a combining acute in the host', { given: 'https://é\u0301.example/', want: { url: 'https://xn--9ca68h.example/' } }],
  ['ü, which would go out as a raw 0xFC byte', { given: 'https://shop.example/ü?x=ü#ü', want: { url: 'https://shop.example/%C3%BC?x=%C3%BC#%C3%BC' } }],
  ['spaces and a quote', { given: "https://shop.example/a b?c d&e='f'", want: { url: 'https://shop.example/a%20b?c%20d&e=%27f%27' } }],
  ['an upper-case scheme and host, and the default port', { given: 'HTTPS://Shop.EXAMPLE:443/Done', want: { url: 'https://shop.example/Done' } }],
  ['a host with no path', { given: 'https://shop.example', want: { url: 'https://shop.example/' } }],
  ['an IPv6 literal with a port', { given: 'https://[::1]:8443/x', want: { url: 'https://[::1]:8443/x' } }],
  ['a port-like user name', { given: 'https://shop.example:443@evil.example/', want: { code: 'unsafe_url' } }],
  ['a user name and password', { given: 'https://user:pass@shop.example/done', want: { code: 'unsafe_url' } }],
  ['an empty user name, which the parser drops', { given: 'https://@evil.example/', want: { code: 'unsafe_url' } }],
  ['a percent-encoded slash before @', { given: 'https://shop.example%2F@evil.example/', want: { code: 'unsafe_url' } }],
  ['backslashes for slashes', { given: 'https:\\\\evil.example', want: { code: 'unsafe_url' } }],
  ['a backslash before @', { given: 'https://shop.example\\@evil.example', want: { code: 'unsafe_url' } }],
  ['a backslash in the path', { given: 'https://shop.example/a\\b', want: { code: 'unsafe_url' } }],
  ['a backslash in the query', { given: 'https://shop.example/?next=\\evil', want: { code: 'unsafe_url' } }],
  ['no scheme', { given: 'shop.example.com/done', want: { code: 'format' } }],
  ['another scheme', { given: 'javascript:alert(1)', want: { code: 'format' } }],
  ['a scheme without slashes', { given: 'https:evil.example', want: { code: 'format' } }],
  ['three slashes, no host', { given: 'https:///evil.example', want: { code: 'format' } }],
  ['a host with no punycode form', { given: 'https://℀.example/', want: { code: 'format' } }],
  ['a port out of range', { given: 'https://shop.example:99999/', want: { code: 'format' } }],
  ['a URL that percent-encoding makes longer than 2048', { given: `https://shop.example/${'й'.repeat(400)}`, want: { code: 'max_length' } }],
];

describe('merchant URLs', () => {
  describe.each(FIELDS)('as %s', (field) => {
    it.each(CASES)('%s', (_name, { given, want }) => {
      const result = normaliseMerchantUrl(field, given);
      if ('url' in want) {
        expect(result).toEqual({ url: want.url });
      } else {
        expect(result).toEqual({ error: { field, code: want.code, message: expect.stringMatching(new RegExp(`^${field} .+\\.$`)) } });
      }
    });
  });

  it.each(CASES.filter(([, { want }]) => 'url' in want))('normalises %s to plain ASCII, and leaves the normalised form as it is', (_name, { given }) => {
    const first = normaliseMerchantUrl('redirectUrl', given) as { url: string };
    expect(isPlainAsciiUrl(first.url)).toBe(true);
    expect(normaliseMerchantUrl('redirectUrl', first.url)).toEqual(first);
  });

  it.each([
    ['https://shop.example/done?reference=r-1&status=SUCCESSFUL', true],
    ['https://shop.example/заказ', false],
    ['https://shop.example/ü', false],
    ['https://shop.example/a b', false],
    ['', false],
  ])('says whether %j can be sent as a Location as it is', (text, want) => {
    expect(isPlainAsciiUrl(text)).toBe(want);
  });
});
