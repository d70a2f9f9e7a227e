import path from 'node:path';
import { loadCompose } from './compose-rules';
import { composeUnpinned, isPinned, kubernetesUnpinned } from './image-pins';
import { loadKustomization, loadManifests } from './manifests';

const ROOT = path.resolve(__dirname, '../..');
const K8S = path.join(ROOT, 'deploy/kubernetes');

describe('every image is pinned to a version', () => {
  it('tells a pinned reference from a floating one', () => {
    expect(['postgres:16.6-alpine', 'axllent/mailpit:v1.21.8', 'registry:5000/x/y:1.2', 'r/x@sha256:abc'].every(isPinned)).toBe(true);
    expect(['postgres', 'axllent/mailpit:latest', 'registry:5000/x/y'].some(isPinned)).toBe(false);
  });

  it('in docker-compose.yml', () => {
    expect(composeUnpinned(loadCompose(path.join(ROOT, 'docker-compose.yml')))).toEqual([]);
  });

  it('in the Kubernetes manifests and their kustomization', () => {
    expect(kubernetesUnpinned(loadManifests(K8S), loadKustomization(K8S))).toEqual([]);
  });
});
