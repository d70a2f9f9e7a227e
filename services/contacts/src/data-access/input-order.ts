/**
 * A batched statement's answers in its inputs' order: each row carries the 1-based ordinal `n` of
 * the input it answers (`unnest … WITH ORDINALITY`); an input no row answers gets `missing`.
 */
export function inInputOrder<Row extends { n: string }, Answer, Missing>(
  rows: readonly Row[],
  inputs: number,
  answerOf: (row: Row) => Answer,
  missing: Missing,
): Array<Answer | Missing> {
  const answers = new Array<Answer | Missing>(inputs).fill(missing);
  for (const row of rows) answers[Number(row.n) - 1] = answerOf(row);
  return answers;
}
