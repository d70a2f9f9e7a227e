/**
 * Keeps due-now first steps in the order their enrolments came. An enrolment claims its first email
 * in its own statement when the launcher has room; without room the row is left pending for the
 * claim loop, which claims only once a quarter of the pipeline is free. Were later enrolments still
 * given each slot as it frees, the rows left pending would wait for a lull: at 200 sign-ups a
 * second they waited the loop's whole poll. So once a row was left, every enrolment leaves its row
 * too, until a claim found nothing more due than it took.
 */
export class ClaimTurns {
  private refused = 0;
  private servedThrough = 0;

  /** Whether an enrolment may claim its row now; a refusal sends it, and those after it, to the claim loop. */
  mayClaim(hasRoom: boolean): boolean {
    if (hasRoom && this.refused === this.servedThrough) return true;
    this.refused++;
    return false;
  }

  /** Taken right before a claim statement, for `caughtUp`. */
  mark(): number {
    return this.refused;
  }

  /**
   * The claim begun at `mark` took fewer rows than it asked for: every row refused before it was
   * committed by then is claimed. A refusal since (its row maybe not committed when the claim read)
   * keeps the turns until the next claim, which that row's commit wakes.
   */
  caughtUp(mark: number): void {
    this.servedThrough = mark;
  }
}
