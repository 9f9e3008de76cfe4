import fc from 'fast-check';
import pino from 'pino';
import { isoTimeBySecond } from './logger';

const pinoIsoTime = (ms: number) => `,"time":"${new Date(ms).toISOString()}"`;

describe('isoTimeBySecond', () => {
  it("writes pino's isoTime field exactly, for any sequence of clock readings, forwards or backwards", () => {
    // From 1970 to 2200, and in runs within one second, as a busy service reads the clock.
    const reading = fc.integer({ min: 0, max: 7_258_118_400_000 });
    const readings = fc.array(fc.oneof(reading, reading.map((ms) => ms - (ms % 1000)), reading.map((ms) => ms - (ms % 1000) + 999)), { minLength: 1, maxLength: 30 });
    fc.assert(
      fc.property(readings, fc.array(fc.integer({ min: 0, max: 999 }), { maxLength: 30 }), (clock, steps) => {
        const sequence = [...clock, ...steps.map((step) => (clock[0] as number) - ((clock[0] as number) % 1000) + step)];
        let at = 0;
        const time = isoTimeBySecond(() => sequence[at] as number);
        for (; at < sequence.length; at += 1) expect(time()).toBe(pinoIsoTime(sequence[at] as number));
      }),
    );
  });

  it("gives a pino line the same time field as pino's own", () => {
    const lines: string[] = [];
    const logger = pino({ base: null, timestamp: isoTimeBySecond(() => Date.parse('2026-11-27T23:11:11.035Z')) }, { write: (line: string) => void lines.push(line) });
    logger.info('request completed');
    expect(JSON.parse(lines[0] as string)).toEqual({ level: 30, time: '2026-11-27T23:11:11.035Z', msg: 'request completed' });
  });
});
