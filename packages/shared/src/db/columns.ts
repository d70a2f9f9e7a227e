/**
 * The column arrays of a statement that takes its rows as `unnest($1::…[], $2::…[], …)`: one array
 * per picker, in the pickers' order, each holding that picker's value for every row.
 *
 * Every picker is called from one call site, which V8 sees called with many functions and so never
 * inlines. A caller that wrote `rows.map(…)` once per column had Array.prototype.map and each
 * picker inlined into it twenty times over: on a slow machine its optimizing compile took 100-200
 * ms of a core, at the moment its traffic got hot (docs/adr/0034-group-commit-for-hot-statements-and-publishes.md).
 */
export function columnsOf<Row>(rows: readonly Row[], pickers: ReadonlyArray<(row: Row) => unknown>): unknown[][] {
  const columns = pickers.map(() => new Array<unknown>(rows.length));
  rows.forEach((row, index) => {
    for (let column = 0; column < pickers.length; column += 1) columns[column]![index] = pickers[column]!(row);
  });
  return columns;
}
