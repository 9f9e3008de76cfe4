// What bench:short holds each command's figures to: present and above zero, non-2xx answers none, counts that agree.
import { problemsOf, type ShortRun } from './short';

const run: ShortRun = { script: 'bench:example', args: [], positive: ['rps', 'nested.cpu'], zero: ['non2xx'], equal: [['delivered', 'events']] };

it('finds nothing wrong with figures that are all there', () => {
  expect(problemsOf(run, { rps: 12, nested: { cpu: 3.5 }, non2xx: 0, delivered: 200, events: 200 })).toEqual([]);
});

it('names each figure missing, at zero, not a number, non-2xx answers, and counts that differ', () => {
  expect(problemsOf(run, { rps: 0, nested: { cpu: '3' }, non2xx: 2, delivered: 199, events: 200 })).toEqual([
    'rps is 0, not a number above zero',
    'nested.cpu is "3", not a number above zero',
    'non2xx is 2, not 0',
    'delivered (199) is not events (200)',
  ]);
  expect(problemsOf(run, {})).toEqual(['rps is undefined, not a number above zero', 'nested.cpu is undefined, not a number above zero', 'non2xx is undefined, not 0']);
});
