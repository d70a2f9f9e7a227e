import { columnsOf } from '../src/db/columns';

describe('the column arrays of an unnest statement', () => {
  const rows = [
    { id: 1, name: 'ada', next: { step: 's2' } },
    { id: 2, name: 'bo', next: undefined },
  ];

  it('gives one array per picker, in the pickers\' order, each in the rows\' order', () => {
    expect(columnsOf(rows, [(row) => row.id, (row) => row.name, (row) => row.next?.step ?? null])).toEqual([
      [1, 2],
      ['ada', 'bo'],
      ['s2', null],
    ]);
  });

  it('calls each picker once per row', () => {
    const seen: number[] = [];
    columnsOf(rows, [(row) => seen.push(row.id)]);
    expect(seen).toEqual([1, 2]);
  });

  it('gives an empty array per picker for no rows (unnest of empty arrays: no rows)', () => {
    expect(columnsOf([] as typeof rows, [(row) => row.id, (row) => row.name])).toEqual([[], []]);
  });
});
