import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { isObject, stringAt, type JsonObject } from './json-shapes';

export interface Manifest {
  file: string;
  kind: string;
  name: string;
  body: JsonObject;
}

export const KUSTOMIZATION = 'kustomization.yaml';
export const SECRET_TEMPLATE = 'secret.template.yaml';

/** Every YAML document in `dir` (kustomization.yaml apart); a file that does not parse throws. */
export function loadManifests(dir: string): Manifest[] {
  const manifests: Manifest[] = [];
  for (const file of readdirSync(dir)
    .filter((entry) => /\.ya?ml$/.test(entry) && entry !== KUSTOMIZATION)
    .sort()) {
    for (const document of parseAllDocuments(readFileSync(path.join(dir, file), 'utf8'))) {
      if (document.errors.length > 0)
        throw new Error(`${file}: ${document.errors.map((e) => e.message).join('; ')}`);
      const body: unknown = document.toJS();
      if (body === null || body === undefined) continue;
      if (!isObject(body)) throw new Error(`${file}: a document that is not a mapping`);
      manifests.push({
        file,
        kind: stringAt(body, 'kind') ?? '?',
        name: stringAt(body, 'metadata', 'name') ?? '?',
        body,
      });
    }
  }
  return manifests;
}

/** kustomization.yaml parsed; throws when it is missing or malformed. */
export function loadKustomization(dir: string): JsonObject {
  const [document] = parseAllDocuments(readFileSync(path.join(dir, KUSTOMIZATION), 'utf8'));
  const body: unknown = document?.toJS();
  if (!document || document.errors.length > 0 || !isObject(body))
    throw new Error(`${KUSTOMIZATION} does not parse`);
  return body;
}

export const yamlFilesIn = (dir: string) =>
  readdirSync(dir)
    .filter((entry) => /\.ya?ml$/.test(entry) && entry !== KUSTOMIZATION)
    .sort();
