import { accessibleShade, contrastWith, LOGO_MAX_BYTES, parseBranding } from './branding';

/** A real 1×1 PNG. */
const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
/** A PNG head claiming 600×200: the signature and the IHDR chunk are all the size check reads. */
const pngOf = (width: number, height: number) => {
  const head = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(head, 0);
  head.writeUInt32BE(13, 8);
  head.write('IHDR', 12, 'latin1');
  head.writeUInt32BE(width, 16);
  head.writeUInt32BE(height, 20);
  return head.toString('base64');
};
/** A JPEG's start: SOI, an APP0 segment, then SOF0 giving 64×32. */
const JPEG_64X32 = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00, 0xff, 0xc0, 0x00, 0x0b, 0x08, 0x00, 0x20, 0x00, 0x40, 0x01, 0x01, 0x11, 0x00]).toString('base64');

function parse(entry: Record<string, unknown>) {
  const problems: string[] = [];
  return { branding: parseBranding(entry, 'merchants[0]', problems), problems };
}

describe('merchant branding in the merchants file', () => {
  it('takes a display name, a colour and an embedded PNG or JPEG logo, with its size', () => {
    expect(parse({ displayName: 'Ada Stores', brandColor: '#0B5CAD', logo: `data:image/png;base64,${PNG_1X1}` })).toEqual({
      branding: { displayName: 'Ada Stores', brandColor: '#0b5cad', logo: { dataUrl: `data:image/png;base64,${PNG_1X1}`, width: 1, height: 1 } },
      problems: [],
    });
    expect(parse({ logo: `data:image/jpeg;base64,${JPEG_64X32}` }).branding.logo).toMatchObject({ width: 64, height: 32 });
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['a remote logo', { logo: 'https://cdn.example.com/logo.png' }, 'merchants[0].logo must be a PNG or JPEG embedded as a data URL'],
    ['an SVG logo', { logo: 'data:image/svg+xml;base64,PHN2Zy8+' }, 'merchants[0].logo must be a PNG or JPEG embedded as a data URL'],
    ['a logo that is not the image it says', { logo: `data:image/png;base64,${Buffer.from('not a png at all, just text').toString('base64')}` }, 'merchants[0].logo says image/png but is not a PNG image'],
    ['an oversized logo', { logo: `data:image/png;base64,${Buffer.alloc(LOGO_MAX_BYTES + 1).toString('base64')}` }, `merchants[0].logo is ${LOGO_MAX_BYTES + 1} bytes; a logo may be at most ${LOGO_MAX_BYTES} bytes`],
    ['a logo too large to show', { logo: `data:image/png;base64,${pngOf(600, 200)}` }, 'merchants[0].logo is 600×200 pixels; a logo may be at most 512×512'],
    ['a colour that is not hex', { brandColor: 'blue' }, 'merchants[0].brandColor must be a hex colour such as "#0B5CAD"'],
    ['an invisible display name', { displayName: 'Ada\u200B' }, 'merchants[0].displayName'],
    ['an empty display name', { displayName: ' ' }, 'merchants[0].displayName must be a string of 1 to 60 characters'],
  ])('refuses %s, naming the entry and field', (_case, entry, problem) => {
    const { problems } = parse(entry);
    expect(problems).toEqual([expect.stringContaining(problem)]);
  });

  it('keeps a colour that reads at AA under white text and on the palest tint, and darkens one that does not until it does', () => {
    expect(accessibleShade('#0b5cad')).toBe('#0b5cad');
    const fromYellow = accessibleShade('#ffd400');
    expect(fromYellow).not.toBe('#ffd400');
    const rgb = [1, 3, 5].map((i) => parseInt(fromYellow.slice(i, i + 2), 16)) as [number, number, number];
    expect(contrastWith(rgb, [255, 255, 255])).toBeGreaterThanOrEqual(4.5);
    expect(contrastWith(rgb, [0xfd, 0xf0, 0xef])).toBeGreaterThanOrEqual(4.5);
    expect(contrastWith([255, 212, 0], [255, 255, 255])).toBeLessThan(4.5);
    expect(accessibleShade('#ffffff')).toMatch(/^#[0-9a-f]{6}$/);
  });
});
