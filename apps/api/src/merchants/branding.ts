import { displayTextError } from '../http/display-text';

/**
 * How a merchant's checkout looks, from MERCHANTS_FILE: the name shown to
 * customers, its colour, and its logo. The logo is embedded in the file as
 * a data URL, never fetched from elsewhere, so the checkout's CSP names no
 * other origin.
 */
export interface Branding {
  /** Shown instead of `name`, such as a trading name. */
  displayName: string | undefined;
  /** The colour of buttons and links: the merchant's own, or a darker shade of it where it would fall below WCAG AA contrast. */
  brandColor: string | undefined;
  logo: Logo | undefined;
}

export interface Logo {
  /** `data:image/png;base64,…` or `data:image/jpeg;base64,…`, as given. */
  dataUrl: string;
  width: number;
  height: number;
}

export const NO_BRANDING: Branding = { displayName: undefined, brandColor: undefined, logo: undefined };

/** The logo's limits: small enough to embed in every page, large enough for a sharp mark on a phone. */
export const LOGO_MAX_BYTES = 32_768;
export const LOGO_MAX_SIDE = 512;
const DISPLAY_NAME_MAX = 60;
/** WCAG 2.1 AA for normal text. */
const MIN_CONTRAST = 4.5;

/** Reads `displayName`, `brandColor` and `logo` of one merchants-file entry; each problem names the field and how to fix it. */
export function parseBranding(entry: Record<string, unknown>, at: string, problems: string[]): Branding {
  const branding: Branding = { ...NO_BRANDING };
  if (entry.displayName !== undefined) {
    const name = entry.displayName;
    if (typeof name !== 'string' || name.trim() === '' || name.length > DISPLAY_NAME_MAX) problems.push(`${at}.displayName must be a string of 1 to ${DISPLAY_NAME_MAX} characters`);
    else {
      const error = displayTextError(`${at}.displayName`, name);
      if (error) problems.push(error.message.replace(/\.$/, ''));
      else branding.displayName = name;
    }
  }
  if (entry.brandColor !== undefined) {
    if (typeof entry.brandColor !== 'string' || !/^#[0-9A-Fa-f]{6}$/.test(entry.brandColor)) problems.push(`${at}.brandColor must be a hex colour such as "#0B5CAD"`);
    else branding.brandColor = accessibleShade(entry.brandColor.toLowerCase());
  }
  if (entry.logo !== undefined) branding.logo = parseLogo(entry.logo, `${at}.logo`, problems);
  return branding;
}

function parseLogo(value: unknown, at: string, problems: string[]): Logo | undefined {
  const match = typeof value === 'string' ? /^data:image\/(png|jpeg);base64,([A-Za-z0-9+/]+={0,2})$/.exec(value) : null;
  if (!match) {
    problems.push(`${at} must be a PNG or JPEG embedded as a data URL ("data:image/png;base64,..."): a remote URL, SVG or any other image is refused, so that the checkout loads nothing from elsewhere`);
    return undefined;
  }
  const bytes = Buffer.from(match[2] as string, 'base64');
  if (bytes.length > LOGO_MAX_BYTES) {
    problems.push(`${at} is ${bytes.length} bytes; a logo may be at most ${LOGO_MAX_BYTES} bytes (${LOGO_MAX_BYTES / 1024} KiB)`);
    return undefined;
  }
  const size = match[1] === 'png' ? pngSize(bytes) : jpegSize(bytes);
  if (!size) {
    problems.push(`${at} says image/${match[1]} but is not a ${match[1] === 'png' ? 'PNG' : 'JPEG'} image`);
    return undefined;
  }
  if (size.width > LOGO_MAX_SIDE || size.height > LOGO_MAX_SIDE || size.width === 0 || size.height === 0) {
    problems.push(`${at} is ${size.width}×${size.height} pixels; a logo may be at most ${LOGO_MAX_SIDE}×${LOGO_MAX_SIDE}`);
    return undefined;
  }
  return { dataUrl: value as string, ...size };
}

/** A PNG's width and height, from its signature and IHDR chunk. */
function pngSize(bytes: Buffer): { width: number; height: number } | undefined {
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (bytes.length < 24 || !bytes.subarray(0, 8).equals(signature) || bytes.toString('latin1', 12, 16) !== 'IHDR') return undefined;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** A JPEG's width and height, from its first start-of-frame marker. */
function jpegSize(bytes: Buffer): { width: number; height: number } | undefined {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined;
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1] as number;
    const length = bytes.readUInt16BE(at + 2);
    // SOF0 to SOF15, except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    at += 2 + length;
  }
  return undefined;
}

/**
 * The colour, darkened step by step until it meets WCAG AA (4.5:1) both
 * under white text (buttons) and as text on the palest tint the checkout
 * puts behind it (#fdf0ef, the error summary's links).
 */
export function accessibleShade(hex: string): string {
  let [r, g, b] = rgbOf(hex);
  while (contrastWith(PALEST_BACKGROUND, [r, g, b]) < MIN_CONTRAST) [r, g, b] = [r, g, b].map((c) => Math.floor(c * 0.9)) as [number, number, number];
  return `#${[r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}

/** The palest surface the checkout shows brand-coloured text on; white is lighter, so a colour that reads on this reads on white. */
const PALEST_BACKGROUND = rgbOf('#fdf0ef');

function rgbOf(hex: string): [number, number, number] {
  return [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
}

/** The WCAG contrast ratio of two colours. */
export function contrastWith(a: readonly [number, number, number], b: readonly [number, number, number]): number {
  const [lighter, darker] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (lighter + 0.05) / (darker + 0.05);
}

function luminance([r, g, b]: readonly [number, number, number]): number {
  const channel = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}
