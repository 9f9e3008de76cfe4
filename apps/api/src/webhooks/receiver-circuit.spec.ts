import fc from 'fast-check';
import { foldReceiverOutcomes, receiverOfUrl } from './receiver-circuit';

describe('receiver circuits', () => {
  it.each([
    ['https://hooks.example.com/paysign?x=1', 'https://hooks.example.com'],
    ['https://hooks.example.com:8443/paysign', 'https://hooks.example.com:8443'],
    ['http://127.0.0.1:4000', 'http://127.0.0.1:4000'],
    ['https://user@hooks.example.com#frag', 'https://user@hooks.example.com'],
    ['not a url', ''],
  ])('reads the receiver of %s as %s', (url, receiver) => {
    expect(receiverOfUrl(url)).toBe(receiver);
  });

  it('folds outcomes into the circuits that applying them one at a time leaves, from any circuits before', () => {
    const receivers = ['https://a.example.com', 'https://b.example.com', 'https://c.example.com'];
    const outcome = fc.record({ receiver: fc.constantFrom(...receivers), answered: fc.boolean() });
    const before = fc.dictionary(fc.constantFrom(...receivers), fc.integer({ min: 1, max: 20 }));
    fc.assert(
      fc.property(before, fc.array(outcome, { maxLength: 30 }), (failuresBefore, outcomes) => {
        // One at a time: an answer deletes the receiver's row, a failure adds one to it.
        const oneAtATime = new Map(Object.entries(failuresBefore));
        for (const { receiver, answered } of outcomes) {
          if (answered) oneAtATime.delete(receiver);
          else oneAtATime.set(receiver, (oneAtATime.get(receiver) ?? 0) + 1);
        }
        // At once, as the repository writes the folded outcomes.
        const folded = foldReceiverOutcomes(outcomes);
        const atOnce = new Map(Object.entries(failuresBefore));
        for (const receiver of folded.closed) atOnce.delete(receiver);
        for (const [receiver, failures] of folded.restarted) atOnce.set(receiver, failures);
        for (const [receiver, failures] of folded.counted) atOnce.set(receiver, (atOnce.get(receiver) ?? 0) + failures);
        expect(atOnce).toEqual(oneAtATime);
      }),
    );
  });
});
