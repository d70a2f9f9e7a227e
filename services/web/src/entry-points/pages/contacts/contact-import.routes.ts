import { Router, type Request, type Response } from 'express';
import busboy from 'busboy';
import { stringify } from 'csv-stringify';
import { once } from 'node:events';
import { AppError, CommonErrorCodes } from '@mailer/shared';
import type { ImportRow } from '../../../data-access/contacts.client';
import { failedLines, findImport, firstLines, startImport, type ImportJob, type StagedLine } from '../../../data-access/imports.repository';
import { ImportFileError } from '../../../domain/csv-import-format';
import { MAX_IMPORT_ROWS, stageCsvUpload } from '../../../domain/stage-csv-upload';
import { callerOf, refuseForgedForm, requireCsrf, signedInOf, viewerOf } from '../../http/session.middleware';
import type { WebDeps } from '../../http/web-deps';
import { neutraliseFormula } from './contacts-export';
import { importPreviewPage, importProgress, importReportPage, importUploadPage } from './contact-import.page';

const isReadable = (line: StagedLine): line is StagedLine & { fields: ImportRow } => !('errors' in line.fields);

const MAX_MEGABYTES = 50;
const PREVIEW_ROWS = 20;
const REPORT_ROWS = 100;
const DOWNLOAD_SLICE = 1000;

const uploadPage = (res: Response, status: number, error?: string) =>
  res.status(status).type('html').send(importUploadPage({ viewer: viewerOf(res), error, maxMegabytes: MAX_MEGABYTES, maxRows: MAX_IMPORT_ROWS }));

/**
 * Reads the multipart upload as a stream: the CSRF field must come before the file (it does in our
 * form), and the file goes straight through the parser into the staging table.
 */
function receiveUpload(deps: WebDeps, req: Request, res: Response): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    let form: busboy.Busboy;
    try {
      form = busboy({ headers: req.headers, limits: { files: 1, fields: 5, fileSize: MAX_MEGABYTES * 1024 * 1024 } });
    } catch {
      return reject(new AppError(CommonErrorCodes.BAD_REQUEST, 'Send the file with the import form.'));
    }
    let token: string | undefined;
    let staging: Promise<number | undefined> | undefined;
    form.on('field', (name, value) => {
      if (name === '_csrf') token = value;
    });
    form.on('file', (_name, file, info) => {
      if (staging) return void file.resume();
      req.body = { _csrf: token };
      if (refuseForgedForm(req, res, signedInOf(res)?.session.csrfToken)) {
        file.resume();
        staging = Promise.resolve(undefined);
        return;
      }
      let tooLarge = false;
      file.on('limit', () => {
        tooLarge = true;
        file.destroy(new ImportFileError(`The file is larger than ${MAX_MEGABYTES} MB; split it into smaller files.`));
      });
      const fileName = (info.filename || 'upload.csv').slice(0, 200);
      staging = stageCsvUpload(deps.pool, signedInOf(res)!.session.accountId, fileName, file).catch((error: unknown) => {
        if (tooLarge) throw new ImportFileError(`The file is larger than ${MAX_MEGABYTES} MB; split it into smaller files.`);
        throw error;
      });
    });
    form.on('close', () => {
      if (!staging) return reject(new ImportFileError('Choose a CSV file to import.'));
      staging.then(resolve, reject);
    });
    form.on('error', () => reject(new AppError(CommonErrorCodes.BAD_REQUEST, 'The upload could not be read. Try again.')));
    req.pipe(form);
  });
}

/** /app/contacts/import: upload → preview (first rows checked by contacts) → import with progress → report. */
export function contactImportRoutes(deps: WebDeps): Router {
  const router = Router();

  const jobOf = async (req: Request, res: Response): Promise<ImportJob> => {
    const raw = String(req.params.id);
    const job = /^[1-9]\d{0,14}$/.test(raw) ? await findImport(deps.pool, signedInOf(res)!.session.accountId, Number(raw)) : undefined;
    if (!job) throw new AppError(CommonErrorCodes.NOT_FOUND, 'import not found');
    return job;
  };

  router.get('/', (_req, res) => uploadPage(res, 200));

  router.post('/', async (req, res) => {
    try {
      const importId = await receiveUpload(deps, req, res);
      if (importId !== undefined) res.redirect(303, `/app/contacts/import/${importId}`);
    } catch (error) {
      if (!(error instanceof ImportFileError)) throw error;
      // Whatever is left of the upload is read and dropped before answering.
      req.resume();
      uploadPage(res, 422, error.message);
    }
  });

  router.get('/:id', async (req, res) => {
    const job = await jobOf(req, res);
    if (job.state === 'uploaded') {
      const lines = await firstLines(deps.pool, job.id, PREVIEW_ROWS);
      const readable = lines.filter(isReadable);
      const checked = readable.length > 0 ? await deps.contacts.importRows(callerOf(req, res), readable.map((line) => line.fields), true) : [];
      const byLine = new Map(readable.map((line, index) => [line.line, checked[index]!]));
      return void res.type('html').send(importPreviewPage({ viewer: viewerOf(res), job, lines, outcomes: lines.map((line) => byLine.get(line.line)!) }));
    }
    const failed = job.state === 'done' ? await failedLines(deps.pool, job.id, 0, REPORT_ROWS) : [];
    res.type('html').send(importReportPage({ viewer: viewerOf(res), job, failed }));
  });

  router.get('/:id/progress', async (req, res) => {
    const job = await jobOf(req, res);
    // Finished: htmx reloads the page, which then shows the report with the failed rows.
    if (job.state === 'done' && req.get('hx-request')) res.set('HX-Refresh', 'true');
    res.type('html').send(importProgress(job).value);
  });

  router.post('/:id/start', requireCsrf, async (req, res) => {
    const job = await jobOf(req, res);
    if (await startImport(deps.pool, job.account_id, job.id)) deps.importWorker.wake();
    res.redirect(303, `/app/contacts/import/${job.id}`);
  });

  router.get('/:id/failed.csv', async (req, res) => {
    const job = await jobOf(req, res);
    res.type('text/csv; charset=utf-8').set('Content-Disposition', `attachment; filename="import-${job.id}-failed.csv"`);
    const csv = stringify({ header: true, columns: ['row', 'email', 'reason'], cast: { string: neutraliseFormula } });
    csv.pipe(res);
    for (let after = 0, slice = await failedLines(deps.pool, job.id, 0, DOWNLOAD_SLICE); slice.length > 0; slice = await failedLines(deps.pool, job.id, after, DOWNLOAD_SLICE)) {
      for (const line of slice) {
        if (!csv.write([line.line, line.fields.email ?? '', line.errors.join('; ')])) await once(csv, 'drain');
        after = line.line;
      }
    }
    csv.end();
  });

  return router;
}
