import { schemaProblems } from './manifest-schemas';
import { arrayAt, isObject, objectAt, stringAt, valueAt, type JsonObject } from './json-shapes';
import type { Manifest } from './manifests';
import { KUSTOMIZATION, SECRET_TEMPLATE } from './manifests';
import {
  AUTOSCALED,
  SERVICES,
  SERVICE_PORTS,
  UPSTREAM_URLS,
  foreignEnv,
  missingEnv,
  type Service,
} from './service-contract';

const find = (manifests: Manifest[], kind: string, name: string) =>
  manifests.find((manifest) => manifest.kind === kind && manifest.name === name);

/** Keys a ConfigMap or Secret provides (data, stringData). */
function keysOf(manifest: Manifest | undefined): Set<string> {
  if (!manifest) return new Set();
  return new Set([
    ...Object.keys(objectAt(manifest.body, 'data') ?? {}),
    ...Object.keys(objectAt(manifest.body, 'stringData') ?? {}),
  ]);
}

function firstContainer(deployment: Manifest): JsonObject | undefined {
  const [container] = arrayAt(deployment.body, 'spec', 'template', 'spec', 'containers');
  return isObject(container) ? container : undefined;
}

/** The value a container's env var resolves to, when it is a literal or a ConfigMap key. */
function envValue(manifests: Manifest[], env: JsonObject): string | undefined {
  const literal = stringAt(env, 'value');
  if (literal !== undefined) return literal;
  const ref = objectAt(env, 'valueFrom', 'configMapKeyRef');
  if (!ref) return undefined;
  const configMap = find(manifests, 'ConfigMap', stringAt(ref, 'name') ?? '');
  return configMap ? stringAt(configMap.body, 'data', stringAt(ref, 'key') ?? '') : undefined;
}

function envProblems(manifests: Manifest[], service: Service, container: JsonObject): string[] {
  const problems: string[] = [];
  const where = `Deployment ${service}`;
  const envs = arrayAt(container, 'env').filter(isObject);
  const names = new Set(envs.map((env) => stringAt(env, 'name') ?? ''));
  for (const missing of missingEnv(service, names)) problems.push(`${where}: does not set ${missing}`);
  for (const name of foreignEnv(service, names)) problems.push(`${where}: sets ${name}, which is another service's`);
  for (const env of envs) {
    const name = stringAt(env, 'name');
    for (const [refKind, kind] of [
      ['configMapKeyRef', 'ConfigMap'],
      ['secretKeyRef', 'Secret'],
    ] as const) {
      const ref = objectAt(env, 'valueFrom', refKind);
      if (!ref || valueAt(ref, 'optional') === true) continue;
      const source = stringAt(ref, 'name') ?? '';
      const key = stringAt(ref, 'key') ?? '';
      if (!keysOf(find(manifests, kind, source)).has(key))
        problems.push(`${where}: ${name} refers to ${kind} ${source} key ${key}, which does not exist`);
    }
  }
  const ports = SERVICE_PORTS[service];
  const portVars =
    service === 'gateway'
      ? ([
          ['GATEWAY_PORT', ports[0]],
          ['EVENTS_PORT', ports[1]],
        ] as const)
      : ([['PORT', ports[0]]] as const);
  for (const [variable, port] of portVars) {
    const env = envs.find((candidate) => stringAt(candidate, 'name') === variable);
    const value = env ? envValue(manifests, env) : undefined;
    if (env && value !== String(port))
      problems.push(`${where}: ${variable} is ${value ?? 'unresolvable'}, the service listens on ${port}`);
  }
  if (service === 'gateway') {
    for (const [variable, upstream] of Object.entries(UPSTREAM_URLS)) {
      const env = envs.find((candidate) => stringAt(candidate, 'name') === variable);
      const value = env ? envValue(manifests, env) : undefined;
      const expected = `http://${upstream}:${SERVICE_PORTS[upstream][0]}`;
      if (env && value !== expected)
        problems.push(`${where}: ${variable} is ${value ?? 'unresolvable'}, expected ${expected}`);
    }
  }
  return problems;
}

function deploymentProblems(manifests: Manifest[], service: Service): string[] {
  const deployment = find(manifests, 'Deployment', service);
  if (!deployment) return [`${service}: no Deployment`];
  const where = `Deployment ${service}`;
  const problems: string[] = [];
  const container = firstContainer(deployment);
  if (!container) return [`${where}: no container`];
  const image = stringAt(container, 'image') ?? '';
  if (!image.startsWith(`mailer/${service}:`))
    problems.push(`${where}: image ${image} is not mailer/${service}:<tag>`);
  const declared = arrayAt(container, 'ports').filter(isObject);
  const containerPorts = declared.map((port) => Number(valueAt(port, 'containerPort')));
  for (const port of SERVICE_PORTS[service]) {
    if (!containerPorts.includes(port)) problems.push(`${where}: does not declare container port ${port}`);
  }
  const portNames = new Set(declared.map((port) => stringAt(port, 'name')).filter(Boolean));
  for (const [probe, expected] of [
    ['readinessProbe', '/readyz'],
    ['livenessProbe', '/healthz'],
  ] as const) {
    const pathValue = stringAt(container, probe, 'httpGet', 'path');
    if (pathValue !== expected)
      problems.push(`${where}: ${probe} checks ${pathValue ?? 'nothing'}, expected ${expected}`);
    const port = valueAt(container, probe, 'httpGet', 'port');
    if (!(typeof port === 'number' ? containerPorts.includes(port) : portNames.has(String(port)))) {
      problems.push(`${where}: ${probe} port ${String(port)} is not a container port`);
    }
  }
  if (valueAt(container, 'securityContext', 'allowPrivilegeEscalation') !== false) {
    problems.push(`${where}: container must set allowPrivilegeEscalation: false`);
  }
  const selector = objectAt(deployment.body, 'spec', 'selector', 'matchLabels') ?? {};
  const podLabels = objectAt(deployment.body, 'spec', 'template', 'metadata', 'labels') ?? {};
  if (Object.entries(selector).some(([key, value]) => podLabels[key] !== value))
    problems.push(`${where}: selector does not match its pod labels`);
  if (AUTOSCALED.includes(service) && valueAt(deployment.body, 'spec', 'replicas') !== undefined) {
    problems.push(`${where}: sets replicas although its HorizontalPodAutoscaler owns the count`);
  }
  return [...problems, ...envProblems(manifests, service, container)];
}

function serviceProblems(manifests: Manifest[], service: Service): string[] {
  const svc = find(manifests, 'Service', service);
  if (!svc) return [`${service}: no Service`];
  const deployment = find(manifests, 'Deployment', service);
  const podLabels = objectAt(deployment?.body, 'spec', 'template', 'metadata', 'labels') ?? {};
  const problems: string[] = [];
  const selector = objectAt(svc.body, 'spec', 'selector') ?? {};
  if (
    Object.keys(selector).length === 0 ||
    Object.entries(selector).some(([key, value]) => podLabels[key] !== value)
  ) {
    problems.push(`Service ${service}: selector does not select the ${service} pods`);
  }
  const container = deployment ? firstContainer(deployment) : undefined;
  const containerPorts = arrayAt(container, 'ports').filter(isObject);
  const exposed = arrayAt(svc.body, 'spec', 'ports').filter(isObject);
  for (const port of SERVICE_PORTS[service]) {
    const entry = exposed.find((candidate) => valueAt(candidate, 'port') === port);
    if (!entry) {
      problems.push(`Service ${service}: does not expose port ${port}`);
      continue;
    }
    const target = valueAt(entry, 'targetPort');
    const targetFound = containerPorts.some((cp) =>
      typeof target === 'number' ? valueAt(cp, 'containerPort') === target : valueAt(cp, 'name') === target,
    );
    if (!targetFound)
      problems.push(`Service ${service}: targetPort ${String(target)} is not a container port`);
  }
  return problems;
}

function autoscalerProblems(manifests: Manifest[]): string[] {
  const problems: string[] = [];
  const autoscalers = manifests.filter((manifest) => manifest.kind === 'HorizontalPodAutoscaler');
  for (const service of AUTOSCALED) {
    if (!autoscalers.some((hpa) => stringAt(hpa.body, 'spec', 'scaleTargetRef', 'name') === service)) {
      problems.push(`${service}: no HorizontalPodAutoscaler`);
    }
  }
  for (const hpa of autoscalers) {
    const target = stringAt(hpa.body, 'spec', 'scaleTargetRef', 'name') ?? '';
    if (!find(manifests, 'Deployment', target))
      problems.push(
        `HorizontalPodAutoscaler ${hpa.name}: targets Deployment ${target}, which does not exist`,
      );
    const min = Number(valueAt(hpa.body, 'spec', 'minReplicas'));
    const max = Number(valueAt(hpa.body, 'spec', 'maxReplicas'));
    if (!(min <= max))
      problems.push(`HorizontalPodAutoscaler ${hpa.name}: minReplicas ${min} above maxReplicas ${max}`);
  }
  return problems;
}

/** kustomization.yaml lists every manifest file (the secret template excepted) and nothing else. */
export function kustomizationProblems(kustomization: JsonObject, files: string[]): string[] {
  const listed = arrayAt(kustomization, 'resources').map(String);
  const problems: string[] = [];
  for (const file of files) {
    if (file === SECRET_TEMPLATE) {
      if (listed.includes(file))
        problems.push(
          `${KUSTOMIZATION}: lists ${SECRET_TEMPLATE}; applying it would overwrite the real Secrets`,
        );
    } else if (!listed.includes(file)) problems.push(`${KUSTOMIZATION}: does not list ${file}`);
  }
  for (const entry of listed)
    if (!files.includes(entry)) problems.push(`${KUSTOMIZATION}: lists ${entry}, which does not exist`);
  for (const service of SERVICES) {
    const images = arrayAt(kustomization, 'images').filter(isObject);
    if (!images.some((image) => stringAt(image, 'name') === `mailer/${service}`))
      problems.push(`${KUSTOMIZATION}: no image entry for mailer/${service}`);
  }
  return problems;
}

/** Every problem in a set of manifests: schema first, then the rules that tie them together. */
export function manifestProblems(manifests: Manifest[]): string[] {
  const problems = manifests.flatMap((manifest) =>
    schemaProblems(`${manifest.file} ${manifest.kind} ${manifest.name}`, manifest.body),
  );
  const names = manifests.map((manifest) => `${manifest.kind}/${manifest.name}`);
  for (const duplicate of new Set(names.filter((name, index) => names.indexOf(name) !== index)))
    problems.push(`${duplicate}: defined twice`);
  for (const service of SERVICES)
    problems.push(...deploymentProblems(manifests, service), ...serviceProblems(manifests, service));
  problems.push(...autoscalerProblems(manifests));
  if (!manifests.some((manifest) => manifest.kind === 'ConfigMap')) problems.push('no ConfigMap');
  if (!manifests.some((manifest) => manifest.kind === 'Secret')) problems.push('no Secret template');
  for (const secret of manifests.filter((manifest) => manifest.kind === 'Secret')) {
    for (const [key, value] of Object.entries(objectAt(secret.body, 'stringData') ?? {})) {
      if (value !== '')
        problems.push(`Secret ${secret.name}: ${key} has a value; the template must carry none`);
    }
  }
  return problems;
}
