import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { IncomingMessage } from 'node:http';
import { AppError, CommonErrorCodes } from '@mailer/shared';

/** The client hung up (or broke off) mid-body: there is no one left to answer. */
export class ClientAborted extends Error {}

const tooLarge = () => new AppError(CommonErrorCodes.PAYLOAD_TOO_LARGE, 'request body is too large');

const DECODERS: Record<string, (input: Buffer, options: { maxOutputLength: number }) => Buffer> = {
  gzip: gunzipSync,
  'x-gzip': gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
};

function read(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        req.off('data', onData);
        // Left unread: Node drains (or drops) the rest once the 413 is sent.
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    let ended = false;
    req.on('data', onData);
    req.once('end', () => {
      ended = true;
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    });
    req.once('error', () => reject(new ClientAborted()));
    // 'close' before 'end' means the client hung up mid-body. It follows every 'end' too, and an
    // error with its stack trace built for nothing cost 1-1.4% of the gateway (docs/performance.md).
    req.once('close', () => {
      if (!ended) reject(new ClientAborted());
    });
  });
}

/** Undoes a Content-Encoding, bounded: a broken stream is 400, one that inflates past the limit 413. */
function decode(body: Buffer, encoding: string, maxBytes: number): Buffer {
  if (encoding === 'identity') return body;
  const decoder = DECODERS[encoding];
  if (!decoder) throw new AppError(CommonErrorCodes.UNSUPPORTED_MEDIA_TYPE, `content encoding "${encoding}" is not supported`);
  try {
    return decoder(body, { maxOutputLength: maxBytes });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge();
    throw new AppError(CommonErrorCodes.BAD_REQUEST, `request body is not valid ${encoding}`);
  }
}

/**
 * The body to forward, read whole (at most `maxBytes`, before and after decoding) so its digest can
 * be signed: services verify that the body they read is the one the gateway saw. A Content-Encoding
 * is undone here, so a broken gzip stream is the client's 400 at the door and services only ever
 * see plain bytes. Null when there is no body.
 */
export async function requestBody(req: IncomingMessage, maxBytes: number): Promise<Buffer | null> {
  const length = req.headers['content-length'];
  if (req.headers['transfer-encoding'] === undefined && (length === undefined || length === '0')) return null;
  if (length !== undefined && Number(length) > maxBytes) throw tooLarge();
  const raw = await read(req, maxBytes);
  const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  const body = decode(raw, encoding, maxBytes);
  return body.length === 0 ? null : body;
}
