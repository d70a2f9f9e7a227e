import type { Logger } from 'pino';
import { z } from 'zod';
import { AppError, FRAGMENT_PATH, type OpenApiFragment } from '@mailer/shared';
import { GatewayErrorCodes } from '../../domain/gateway.errors';
import { mergeDocument, type ApiServer, type OpenApiDocument } from './openapi-document';

/** A service whose fragment is fetched from its internal port. */
export interface FragmentSource {
  name: string;
  url: string;
  server: ApiServer;
  /** Left out of the document (logged) when it does not answer, instead of failing the whole document. */
  optional?: boolean;
}

export interface ApiDocsOptions {
  sources: FragmentSource[];
  logger: Logger;
  version: string;
  /** How long a merged document is served before the fragments are fetched again (a redeploy may change them). */
  ttlMs?: number;
  timeoutMs?: number;
}

// Only the skeleton is checked: the fragment comes from our own services, but a wrong upstream URL must fail clearly.
const fragmentShape = z.object({
  paths: z.record(z.string(), z.record(z.string(), z.looseObject({ responses: z.record(z.string(), z.unknown()) }))),
  webhooks: z.record(z.string(), z.record(z.string(), z.looseObject({ responses: z.record(z.string(), z.unknown()) }))).optional(),
  components: z.object({ schemas: z.record(z.string(), z.record(z.string(), z.unknown())) }),
});

/** Fetches and merges the services' fragments; one merged document is shared until it expires. */
export class ApiDocs {
  private cached: { document: Promise<OpenApiDocument>; expiresAt: number } | undefined;

  constructor(private readonly options: ApiDocsOptions) {}

  document(): Promise<OpenApiDocument> {
    if (this.cached && this.cached.expiresAt > Date.now()) return this.cached.document;
    const document = this.build();
    this.cached = { document, expiresAt: Date.now() + (this.options.ttlMs ?? 60_000) };
    // A failure is not kept: the next request tries the upstreams again.
    document.catch(() => {
      if (this.cached?.document === document) this.cached = undefined;
    });
    return document;
  }

  private async build(): Promise<OpenApiDocument> {
    const fragments = await Promise.all(
      this.options.sources.map(async (source) => ({
        ...source,
        fragment: await this.fetchFragment(source).catch((error: unknown) => {
          if (source.optional) return undefined;
          throw error;
        }),
      })),
    );
    return mergeDocument(
      fragments.flatMap(({ fragment, ...source }) => (fragment ? [{ ...source, fragment }] : [])),
      this.options.version,
    );
  }

  private async fetchFragment(source: FragmentSource): Promise<OpenApiFragment> {
    try {
      const response = await fetch(new URL(FRAGMENT_PATH, source.url), { signal: AbortSignal.timeout(this.options.timeoutMs ?? 3000) });
      if (!response.ok) throw new Error(`status ${response.status}`);
      const body: unknown = await response.json();
      fragmentShape.parse(body);
      return body as OpenApiFragment;
    } catch (error) {
      this.options.logger.warn({ err: error, upstream: source.name }, 'could not fetch an OpenAPI fragment');
      throw new AppError(GatewayErrorCodes.UPSTREAM_UNAVAILABLE, `API description unavailable: ${source.name} service did not answer`).withHeaders({
        'Retry-After': '5',
      });
    }
  }
}
