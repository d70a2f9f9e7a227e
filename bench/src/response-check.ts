/** Above this share of non-2xx answers or errors a scenario measured refusals, not the service. */
const MAX_BAD_SHARE = 0.01;

/**
 * Records a problem when more than 1% of a scenario's requests were not answered 2xx (429s from a
 * limiter or 5xx make a benchmark wrong, not slow).
 */
export function checkResponses(
  problems: string[],
  scenario: string,
  answered: number,
  non2xx: number,
  errors: number,
): void {
  const attempted = answered + errors;
  const bad = non2xx + errors;
  if (attempted === 0) problems.push(`${scenario}: no request was answered`);
  else if (bad / attempted > MAX_BAD_SHARE) {
    problems.push(
      `${scenario}: ${bad} of ${attempted} requests were not 2xx (${non2xx} non-2xx, ${errors} errors)`,
    );
  }
}
