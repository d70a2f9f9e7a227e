import Ajv from 'ajv';

/**
 * A hand-written subset of the Kubernetes OpenAPI schemas: the fields this project relies on,
 * with their types. Not the full API (that needs the cluster's schema and the internet); enough
 * to catch a misspelt key, a wrong type or a missing required field before `kubectl apply` does.
 */
const name = { type: 'string', pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$', maxLength: 63 };
const labels = { type: 'object', additionalProperties: { type: 'string' } };
const metadata = {
  type: 'object',
  required: ['name'],
  properties: { name, labels, annotations: labels, namespace: name },
};
const portNumber = { type: 'integer', minimum: 1, maximum: 65535 };
const portRef = { oneOf: [portNumber, { type: 'string', pattern: '^[a-z0-9-]{1,15}$' }] };
const quantity = { oneOf: [{ type: 'string', pattern: '^[0-9.]+(m|Mi|Gi|Ki|M|G|k)?$' }, { type: 'number' }] };
const httpProbe = {
  type: 'object',
  required: ['httpGet'],
  properties: {
    httpGet: {
      type: 'object',
      required: ['path', 'port'],
      properties: { path: { type: 'string', pattern: '^/' }, port: portRef },
    },
    periodSeconds: { type: 'integer', minimum: 1 },
    timeoutSeconds: { type: 'integer', minimum: 1 },
    failureThreshold: { type: 'integer', minimum: 1 },
    initialDelaySeconds: { type: 'integer', minimum: 0 },
  },
};
const keyRef = {
  type: 'object',
  required: ['name', 'key'],
  additionalProperties: false,
  properties: { name, key: { type: 'string' }, optional: { type: 'boolean' } },
};
const envVar = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', pattern: '^[A-Z_][A-Z0-9_]*$' },
    value: { type: 'string' },
    valueFrom: {
      type: 'object',
      minProperties: 1,
      maxProperties: 1,
      additionalProperties: false,
      properties: { configMapKeyRef: keyRef, secretKeyRef: keyRef },
    },
  },
  oneOf: [{ required: ['value'] }, { required: ['valueFrom'] }],
};
const container = {
  type: 'object',
  required: ['name', 'image', 'ports', 'readinessProbe', 'livenessProbe', 'resources'],
  properties: {
    name,
    image: { type: 'string', minLength: 1 },
    ports: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['containerPort'],
        properties: {
          containerPort: portNumber,
          name: { type: 'string' },
          protocol: { enum: ['TCP', 'UDP'] },
        },
      },
    },
    env: { type: 'array', items: envVar },
    readinessProbe: httpProbe,
    livenessProbe: httpProbe,
    startupProbe: httpProbe,
    resources: {
      type: 'object',
      required: ['requests', 'limits'],
      properties: {
        requests: {
          type: 'object',
          required: ['cpu', 'memory'],
          properties: { cpu: quantity, memory: quantity },
        },
        limits: { type: 'object', required: ['memory'], properties: { cpu: quantity, memory: quantity } },
      },
    },
    securityContext: {
      type: 'object',
      properties: {
        allowPrivilegeEscalation: { type: 'boolean' },
        readOnlyRootFilesystem: { type: 'boolean' },
        runAsNonRoot: { type: 'boolean' },
      },
    },
  },
};

const manifest = (apiVersion: string, kind: string, spec: object | undefined, extra: object = {}) => ({
  type: 'object',
  required: ['apiVersion', 'kind', 'metadata', ...(spec ? ['spec'] : [])],
  properties: {
    apiVersion: { const: apiVersion },
    kind: { const: kind },
    metadata,
    ...(spec ? { spec } : {}),
    ...extra,
  },
});

const stringMap = { type: 'object', additionalProperties: { type: 'string' } };

export const SCHEMAS: Record<string, object> = {
  Namespace: manifest('v1', 'Namespace', undefined),
  ConfigMap: manifest('v1', 'ConfigMap', undefined, { data: stringMap }),
  Secret: manifest('v1', 'Secret', undefined, {
    type: { type: 'string' },
    stringData: stringMap,
    data: stringMap,
  }),
  Deployment: manifest('apps/v1', 'Deployment', {
    type: 'object',
    required: ['selector', 'template'],
    properties: {
      replicas: { type: 'integer', minimum: 1 },
      selector: { type: 'object', required: ['matchLabels'], properties: { matchLabels: labels } },
      template: {
        type: 'object',
        required: ['metadata', 'spec'],
        properties: {
          metadata: { type: 'object', required: ['labels'], properties: { labels, annotations: labels } },
          spec: {
            type: 'object',
            required: ['containers', 'securityContext'],
            properties: {
              containers: { type: 'array', minItems: 1, items: container },
              securityContext: {
                type: 'object',
                // The images say `USER node` (a name): runAsNonRoot can only verify a numeric runAsUser.
                required: ['runAsNonRoot', 'runAsUser'],
                properties: { runAsNonRoot: { const: true }, runAsUser: { type: 'integer', minimum: 1 } },
              },
            },
          },
        },
      },
    },
  }),
  Service: manifest('v1', 'Service', {
    type: 'object',
    required: ['selector', 'ports'],
    properties: {
      type: { enum: ['ClusterIP', 'NodePort', 'LoadBalancer'] },
      selector: labels,
      ports: {
        type: 'array',
        minItems: 1,
        items: {
          type: 'object',
          required: ['port', 'targetPort'],
          properties: { port: portNumber, targetPort: portRef, name: { type: 'string' } },
        },
      },
    },
  }),
  HorizontalPodAutoscaler: manifest('autoscaling/v2', 'HorizontalPodAutoscaler', {
    type: 'object',
    required: ['scaleTargetRef', 'minReplicas', 'maxReplicas', 'metrics'],
    properties: {
      scaleTargetRef: {
        type: 'object',
        required: ['apiVersion', 'kind', 'name'],
        properties: { apiVersion: { const: 'apps/v1' }, kind: { const: 'Deployment' }, name },
      },
      minReplicas: { type: 'integer', minimum: 1 },
      maxReplicas: { type: 'integer', minimum: 1 },
      metrics: { type: 'array', minItems: 1, items: { type: 'object', required: ['type'] } },
    },
  }),
  NetworkPolicy: manifest('networking.k8s.io/v1', 'NetworkPolicy', {
    type: 'object',
    required: ['podSelector', 'policyTypes'],
    properties: {
      podSelector: { type: 'object' },
      policyTypes: { type: 'array', minItems: 1, items: { enum: ['Ingress', 'Egress'] } },
      ingress: { type: 'array', items: { type: 'object' } },
    },
  }),
};

const ajv = new Ajv({ allErrors: true });
const validators = Object.fromEntries(
  Object.entries(SCHEMAS).map(([kind, schema]) => [kind, ajv.compile(schema)]),
);

/** Schema problems of one manifest, as `where: message` lines; empty when it conforms. */
export function schemaProblems(where: string, document: unknown): string[] {
  const kind = (document as { kind?: unknown } | null)?.kind;
  const validate = typeof kind === 'string' ? validators[kind] : undefined;
  if (!validate) return [`${where}: kind ${String(kind)} is not one this project deploys`];
  if (validate(document) === true) return [];
  return (validate.errors ?? []).map(
    (error) => `${where}: ${error.dataPath || '(root)'} ${error.message ?? 'is invalid'}`,
  );
}
