import { ClaimTurns } from '../src/entry-points/workers/claim-turns';

describe('ClaimTurns', () => {
  it('lets enrolments claim while there is room and none waits', () => {
    const turns = new ClaimTurns();
    expect([turns.mayClaim(true), turns.mayClaim(true)]).toEqual([true, true]);
  });

  it('once a row was left to the claim loop, leaves the later ones too, room or not, until a claim caught up', () => {
    const turns = new ClaimTurns();
    expect(turns.mayClaim(false)).toBe(false);
    // A slot freed: the newer enrolment must not overtake the row already waiting.
    expect(turns.mayClaim(true)).toBe(false);
    const mark = turns.mark();
    turns.caughtUp(mark);
    expect(turns.mayClaim(true)).toBe(true);
  });

  it('keeps the turns when a row was left while the claim was reading', () => {
    const turns = new ClaimTurns();
    turns.mayClaim(false);
    const mark = turns.mark();
    // Refused during the claim: its row may not have been committed when the claim read.
    turns.mayClaim(true);
    turns.caughtUp(mark);
    expect(turns.mayClaim(true)).toBe(false);
    turns.caughtUp(turns.mark());
    expect(turns.mayClaim(true)).toBe(true);
  });
});
