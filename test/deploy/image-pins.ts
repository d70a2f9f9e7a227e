import { arrayAt, isObject, objectAt, stringAt, type JsonObject } from './json-shapes';
import type { Manifest } from './manifests';

/** An image reference that names a version: a digest, or a tag that is neither absent nor `latest`. */
export function isPinned(image: string): boolean {
  if (image.includes('@sha256:')) return true;
  const tag = /:([^/:]+)$/.exec(image)?.[1];
  return tag !== undefined && tag !== 'latest';
}

/** Images in docker-compose.yml that float (services built here carry no image). */
export function composeUnpinned(compose: JsonObject): string[] {
  const services = objectAt(compose, 'services') ?? {};
  return Object.entries(services).flatMap(([name, service]) => {
    const image = isObject(service) ? stringAt(service, 'image') : undefined;
    return image !== undefined && !isPinned(image) ? [`compose ${name}: image ${image} is not pinned`] : [];
  });
}

/** Container images and kustomize tags in the manifests that float. */
export function kubernetesUnpinned(manifests: Manifest[], kustomization: JsonObject): string[] {
  const containers = manifests.flatMap((manifest) =>
    arrayAt(manifest.body, 'spec', 'template', 'spec', 'containers')
      .filter(isObject)
      .map((container) => ({ where: `${manifest.file} ${manifest.kind} ${manifest.name}`, image: stringAt(container, 'image') ?? '' })),
  );
  const problems = containers.filter(({ image }) => !isPinned(image)).map(({ where, image }) => `${where}: image ${image} is not pinned`);
  for (const entry of arrayAt(kustomization, 'images').filter(isObject)) {
    const tag = String(entry.newTag ?? '');
    if (tag === '' || tag === 'latest') problems.push(`kustomization.yaml: ${String(entry.name)} newTag ${tag || '(none)'} is not pinned`);
  }
  return problems;
}
