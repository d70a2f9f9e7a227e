import type { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import type { Pool } from '@mailer/shared';
import { deleteImport, insertImport, stageRows, type StagedLine } from '../data-access/imports.repository';
import { ImportFileError, readHeader, readRow } from './csv-import-format';

const STAGE_BATCH = 1000;
export const MAX_IMPORT_ROWS = 200_000;
/** One row's characters (a row past this is a broken file, e.g. an unclosed quote). */
const MAX_RECORD_BYTES = 128 * 1024;

/**
 * Parses the uploaded file as it arrives and stages its rows in batches (the parser waits while a
 * batch is written: backpressure, so 100k rows never sit in memory). Returns the new import's id;
 * a file that cannot be read (no header, an unclosed quote, too many rows) leaves nothing behind
 * and throws ImportFileError with the reason in words.
 */
export async function stageCsvUpload(pool: Pool, accountId: number, fileName: string, file: Readable): Promise<number> {
  const parser = file.pipe(parse({ bom: true, relax_column_count: true, skip_empty_lines: true, max_record_size: MAX_RECORD_BYTES }));
  let importId: number | undefined;
  try {
    let columns: ReturnType<typeof readHeader> | undefined;
    let batch: StagedLine[] = [];
    let rows = 0;
    for await (const record of parser as AsyncIterable<string[]>) {
      if (!columns) {
        columns = readHeader(record);
        importId = await insertImport(pool, accountId, fileName, columns);
        continue;
      }
      rows += 1;
      if (rows > MAX_IMPORT_ROWS) throw new ImportFileError(`The file has more than ${MAX_IMPORT_ROWS.toLocaleString('en-US')} rows; split it into smaller files.`);
      batch.push({ line: rows + 1, fields: readRow(columns, record) });
      if (batch.length === STAGE_BATCH) {
        await stageRows(pool, importId!, batch);
        batch = [];
      }
    }
    if (!columns || importId === undefined) throw new ImportFileError('The file is empty: its first row must name the columns, with an “email” column.');
    if (batch.length > 0) await stageRows(pool, importId, batch);
    if (rows === 0) throw new ImportFileError('The file has a header row but no contacts under it.');
    return importId;
  } catch (error) {
    file.resume();
    if (importId !== undefined) await deleteImport(pool, importId);
    const code = (error as { code?: string } | null)?.code;
    if (typeof code === 'string' && code.startsWith('CSV_')) throw new ImportFileError(`The file is not valid CSV: ${(error as Error).message}`);
    throw error;
  }
}
