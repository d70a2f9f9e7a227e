import type { ImportRow } from '../data-access/contacts.client';

/** The columns the file format names; every other column is a custom property. */
export const KNOWN_COLUMNS = ['email', 'first_name', 'last_name', 'subscribed', 'tags'] as const;
export const MAX_COLUMNS = 60;

export interface ImportColumns {
  /** Each column's name as given in the header row, trimmed. */
  names: string[];
  /** The custom property columns, in file order. */
  properties: string[];
}

/** A file row: what contacts takes, or why a cell could not be read (the file's format, not a contact rule). */
export type StagedRow = ImportRow | { errors: string[]; email?: string };

export class ImportFileError extends Error {}

/** The header row: an `email` column is required; names must be unique (case-insensitively) and not blank. */
export function readHeader(cells: string[]): ImportColumns {
  const names = cells.map((cell) => cell.trim());
  const lower = names.map((name) => name.toLowerCase());
  if (!lower.includes('email')) throw new ImportFileError('The first row must name the columns, and one of them must be “email”.');
  if (names.some((name) => name === '')) throw new ImportFileError('Every column in the first row needs a name.');
  const duplicate = lower.find((name, index) => lower.indexOf(name) !== index);
  if (duplicate) throw new ImportFileError(`The column “${duplicate}” appears twice in the first row.`);
  if (names.length > MAX_COLUMNS) throw new ImportFileError(`The file has ${names.length} columns; at most ${MAX_COLUMNS} are read.`);
  const known = new Set<string>(KNOWN_COLUMNS);
  return { names, properties: names.filter((name) => !known.has(name.toLowerCase())) };
}

const YES = new Set(['true', 'yes', 'y', '1']);
const NO = new Set(['false', 'no', 'n', '0']);

/**
 * One data row by the header: empty cells are left out (an import never blanks a field), tags are
 * separated by `;`, `subscribed` reads true/false, yes/no or 1/0. Whether the address, names, tags
 * and properties are acceptable is the contacts service's to say.
 */
export function readRow(columns: ImportColumns, cells: string[]): StagedRow {
  if (cells.length > columns.names.length) return { errors: [`the row has ${cells.length} cells but the first row names ${columns.names.length} columns`] };
  const row: ImportRow = { email: '' };
  const properties: Record<string, string> = {};
  const problems: string[] = [];
  columns.names.forEach((name, index) => {
    const cell = (cells[index] ?? '').trim();
    if (cell === '') return;
    switch (name.toLowerCase()) {
      case 'email':
        row.email = cell;
        break;
      case 'first_name':
        row.first_name = cell;
        break;
      case 'last_name':
        row.last_name = cell;
        break;
      case 'tags':
        row.tags = cell.split(';').map((tag) => tag.trim()).filter(Boolean);
        break;
      case 'subscribed':
        if (YES.has(cell.toLowerCase())) row.subscribed = true;
        else if (NO.has(cell.toLowerCase())) row.subscribed = false;
        else problems.push(`subscribed must be true or false (or yes/no, 1/0), not “${cell}”`);
        break;
      default:
        properties[name] = cell;
    }
  });
  if (row.email === '') problems.unshift('email is required');
  if (problems.length > 0) return row.email ? { errors: problems, email: row.email } : { errors: problems };
  if (Object.keys(properties).length > 0) row.custom_properties = properties;
  return row;
}
