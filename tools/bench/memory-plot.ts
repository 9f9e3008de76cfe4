// A small SVG line chart of the memory benchmark's samples: nonces held and
// the server's RSS over time, each on its own axis, the load period shaded.

export interface MemorySample {
  /** Seconds since the load started. */
  atSeconds: number;
  heldNonces: number;
  rssMb: number;
  heapUsedMb: number;
}

export interface MemoryPlotInput {
  samples: readonly MemorySample[];
  loadSeconds: number;
  /** The rate × TTL line: nonces live at the achieved rate. */
  expectedLiveNonces: number;
  title: string;
}

const WIDTH = 720;
const HEIGHT = 360;
const MARGIN = { left: 70, right: 70, top: 40, bottom: 50 };

export function memoryPlotSvg({ samples, loadSeconds, expectedLiveNonces, title }: MemoryPlotInput): string {
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const maxSeconds = Math.max(...samples.map((s) => s.atSeconds), 1);
  const maxNonces = niceCeiling(Math.max(...samples.map((s) => s.heldNonces), expectedLiveNonces, 1));
  const maxRss = niceCeiling(Math.max(...samples.map((s) => s.rssMb), 1));
  const x = (seconds: number) => MARGIN.left + (seconds / maxSeconds) * plotWidth;
  const yNonces = (n: number) => MARGIN.top + plotHeight - (n / maxNonces) * plotHeight;
  const yRss = (mb: number) => MARGIN.top + plotHeight - (mb / maxRss) * plotHeight;
  const line = (points: Array<[number, number]>) => points.map(([px, py], i) => `${i === 0 ? 'M' : 'L'}${px.toFixed(1)},${py.toFixed(1)}`).join(' ');

  const ticks = [0, 0.25, 0.5, 0.75, 1];
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="#fff"/>`,
    `<text x="${WIDTH / 2}" y="22" text-anchor="middle" font-size="14">${escapeXml(title)}</text>`,
    `<rect x="${x(0)}" y="${MARGIN.top}" width="${x(Math.min(loadSeconds, maxSeconds)) - x(0)}" height="${plotHeight}" fill="#f2f5fa"/>`,
    `<text x="${x(Math.min(loadSeconds, maxSeconds)) - 4}" y="${MARGIN.top + 14}" text-anchor="end" fill="#667">load</text>`,
    ...ticks.flatMap((t) => [
      `<line x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${yNonces(t * maxNonces)}" y2="${yNonces(t * maxNonces)}" stroke="#e3e6ea"/>`,
      `<text x="${MARGIN.left - 6}" y="${yNonces(t * maxNonces) + 4}" text-anchor="end" fill="#1f5fbf">${formatCount(t * maxNonces)}</text>`,
      `<text x="${WIDTH - MARGIN.right + 6}" y="${yRss(t * maxRss) + 4}" fill="#b3541e">${Math.round(t * maxRss)} MB</text>`,
      `<text x="${x(t * maxSeconds)}" y="${HEIGHT - MARGIN.bottom + 18}" text-anchor="middle">${Math.round(t * maxSeconds)} s</text>`,
    ]),
    `<line x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${yNonces(expectedLiveNonces)}" y2="${yNonces(expectedLiveNonces)}" stroke="#1f5fbf" stroke-dasharray="4 4"/>`,
    `<path d="${line(samples.map((s) => [x(s.atSeconds), yNonces(s.heldNonces)]))}" fill="none" stroke="#1f5fbf" stroke-width="2"/>`,
    `<path d="${line(samples.map((s) => [x(s.atSeconds), yRss(s.rssMb)]))}" fill="none" stroke="#b3541e" stroke-width="2"/>`,
    `<text x="${MARGIN.left}" y="${HEIGHT - 12}" fill="#1f5fbf">— nonces held   - - rate × TTL</text>`,
    `<text x="${WIDTH - MARGIN.right}" y="${HEIGHT - 12}" text-anchor="end" fill="#b3541e">— server RSS</text>`,
    '</svg>',
  ];
  return `${parts.join('\n')}\n`;
}

function niceCeiling(value: number): number {
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) if (value <= step * magnitude) return step * magnitude;
  return 10 * magnitude;
}

function formatCount(n: number): string {
  return n >= 1_000_000 ? `${(n / 1_000_000).toFixed(1)}M` : n >= 1000 ? `${Math.round(n / 1000)}k` : String(Math.round(n));
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
