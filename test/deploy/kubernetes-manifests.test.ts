import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, unlinkSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brokerEnv, commonEnvSchema, postgresEnv, redisEnv } from '@mailer/shared';
import { gatewayEnvSchema } from '../../services/gateway/src/config';
import { contactsEnvSchema } from '../../services/contacts/src/config';
import { campaignsEnvSchema } from '../../services/campaigns/src/config';
import { eventsEnvSchema } from '../../services/events/src/config';
import { automationEnvSchema } from '../../services/automation/src/config';
import { webEnvSchema } from '../../services/web/src/config';
import { webhooksEnvSchema } from '../../services/webhooks/src/config';
import { parseAllDocuments } from 'yaml';
import { arrayAt, isObject, objectAt, stringAt, type JsonObject } from './json-shapes';
import { kustomizationProblems, manifestProblems } from './manifest-rules';
import { loadKustomization, loadManifests, yamlFilesIn, type Manifest } from './manifests';
import { REQUIRED_ENV, SERVICES, type Service } from './service-contract';

const DIR = path.resolve(__dirname, '../../deploy/kubernetes');

/** A deep copy to break, so each test starts from the real files. */
const fresh = (): Manifest[] => structuredClone(loadManifests(DIR));
const get = (manifests: Manifest[], kind: string, name: string) =>
  manifests.find((m) => m.kind === kind && m.name === name)!;
const containerOf = (manifest: Manifest): JsonObject => {
  const [container] = arrayAt(manifest.body, 'spec', 'template', 'spec', 'containers');
  if (!isObject(container)) throw new Error('no container');
  return container;
};
const envList = (manifest: Manifest) => arrayAt(containerOf(manifest), 'env').filter(isObject);

/** kubectl's built-in kustomize, when this machine has kubectl (CI may not: then that test is skipped). */
function kustomize(dir: string): string | undefined {
  try {
    return execFileSync('kubectl', ['kustomize', dir], {
      encoding: 'utf8',
      timeout: 60_000,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
const rendered = kustomize(DIR);

describe('deploy/kubernetes', () => {
  it('has a Deployment, a Service and its env for every service, autoscalers, ConfigMap and Secret template, all valid', () => {
    expect(manifestProblems(loadManifests(DIR))).toEqual([]);
  });

  it('has a kustomization.yaml that lists every manifest but the secret template, and every image', () => {
    expect(kustomizationProblems(loadKustomization(DIR), yamlFilesIn(DIR))).toEqual([]);
  });

  (rendered === undefined ? it.skip : it)(
    'renders with kustomize into the mailer namespace with every Deployment',
    () => {
      const documents = parseAllDocuments(rendered ?? '').map((document) => document.toJS() as unknown);
      const names = documents.map(
        (document) => `${stringAt(document, 'kind')}/${stringAt(document, 'metadata', 'name')}`,
      );
      for (const service of SERVICES)
        expect(names).toEqual(expect.arrayContaining([`Deployment/${service}`, `Service/${service}`]));
      expect(names.some((name) => name.startsWith('Secret/'))).toBe(false);
      for (const document of documents) {
        if (stringAt(document, 'kind') !== 'Namespace')
          expect(stringAt(document, 'metadata', 'namespace')).toBe('mailer');
      }
    },
  );

  it('fails when a service file is missing from a copy of the folder', () => {
    const copy = mkdtempSync(path.join(tmpdir(), 'deploy-'));
    try {
      cpSync(DIR, copy, { recursive: true });
      unlinkSync(path.join(copy, 'campaigns.yaml'));
      const problems = [
        ...manifestProblems(loadManifests(copy)),
        ...kustomizationProblems(loadKustomization(copy), yamlFilesIn(copy)),
      ];
      expect(problems).toEqual(
        expect.arrayContaining([
          'campaigns: no Deployment',
          'campaigns: no Service',
          'kustomization.yaml: lists campaigns.yaml, which does not exist',
        ]),
      );
      writeFileSync(path.join(copy, 'extra.yaml'), readFileSync(path.join(DIR, 'namespace.yaml')));
      expect(kustomizationProblems(loadKustomization(copy), yamlFilesIn(copy))).toContain(
        'kustomization.yaml: does not list extra.yaml',
      );
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it('names a probe on the wrong path, a missing request and a missing runAsNonRoot', () => {
    const manifests = fresh();
    const contacts = containerOf(get(manifests, 'Deployment', 'contacts'));
    objectAt(contacts, 'readinessProbe', 'httpGet')!.path = '/healthz';
    delete objectAt(contacts, 'resources', 'requests')!.memory;
    const webhooks = get(manifests, 'Deployment', 'webhooks');
    delete objectAt(webhooks.body, 'spec', 'template', 'spec', 'securityContext')!.runAsNonRoot;
    const problems = manifestProblems(manifests);
    expect(problems).toContain('Deployment contacts: readinessProbe checks /healthz, expected /readyz');
    expect(
      problems.some(
        (p) =>
          p.startsWith('contacts.yaml Deployment contacts:') &&
          p.includes("requests should have required property 'memory'"),
      ),
    ).toBe(true);
    expect(
      problems.some((p) => p.startsWith('webhooks.yaml Deployment webhooks:') && p.includes("'runAsNonRoot'")),
    ).toBe(true);
  });

  it('names an env var whose ConfigMap or Secret key does not exist, and a required variable not set', () => {
    const manifests = fresh();
    const automation = get(manifests, 'Deployment', 'automation');
    const env = envList(automation);
    const mailFrom = env.find((e) => e.name === 'MAIL_FROM')!;
    objectAt(mailFrom, 'valueFrom', 'configMapKeyRef')!.key = 'MAIL_FORM';
    containerOf(automation).env = env.filter((e) => e.name !== 'SMTP_URL');
    delete objectAt(get(manifests, 'Secret', 'mailer-secrets').body, 'stringData')!.REDIS_URL;
    containerOf(get(manifests, 'Deployment', 'gateway')).env = [
      ...envList(get(manifests, 'Deployment', 'gateway')),
      { name: 'SMTP_URL', valueFrom: { secretKeyRef: { name: 'mailer-secrets', key: 'SMTP_URL' } } },
    ];
    containerOf(get(manifests, 'Deployment', 'events')).env = [
      ...envList(get(manifests, 'Deployment', 'events')),
      { name: 'CONTACTS_DATABASE_URL', valueFrom: { secretKeyRef: { name: 'mailer-contacts-database', key: 'DATABASE_URL' } } },
    ];
    const problems = manifestProblems(manifests);
    expect(problems).toEqual(
      expect.arrayContaining([
        'Deployment automation: MAIL_FROM refers to ConfigMap mailer-config key MAIL_FORM, which does not exist',
        'Deployment automation: does not set SMTP_URL',
        "Deployment gateway: sets SMTP_URL, which is another service's",
        "Deployment events: sets CONTACTS_DATABASE_URL, which is another service's",
        'Deployment gateway: REDIS_URL refers to Secret mailer-secrets key REDIS_URL, which does not exist',
        'Deployment contacts: REDIS_URL refers to Secret mailer-secrets key REDIS_URL, which does not exist',
      ]),
    );
  });

  it('names a port or upstream URL that does not match where the service listens', () => {
    const manifests = fresh();
    objectAt(get(manifests, 'ConfigMap', 'mailer-config').body, 'data')!.CONTACTS_SERVICE_URL =
      'http://contacts:3011';
    const port = envList(get(manifests, 'Deployment', 'webhooks')).find((e) => e.name === 'PORT')!;
    port.value = '8080';
    const problems = manifestProblems(manifests);
    expect(problems).toContain(
      'Deployment gateway: CONTACTS_SERVICE_URL is http://contacts:3011, expected http://contacts:3010',
    );
    expect(problems).toContain('Deployment webhooks: PORT is 8080, the service listens on 3060');
  });

  it('names an autoscaler aimed at a Deployment that does not exist, and an autoscaled service without one', () => {
    const manifests = fresh().filter((m) => !(m.kind === 'HorizontalPodAutoscaler' && m.name === 'gateway'));
    objectAt(get(manifests, 'HorizontalPodAutoscaler', 'automation').body, 'spec', 'scaleTargetRef')!.name =
      'automaton';
    const problems = manifestProblems(manifests);
    expect(problems).toContain('gateway: no HorizontalPodAutoscaler');
    expect(problems).toContain(
      'HorizontalPodAutoscaler automation: targets Deployment automaton, which does not exist',
    );
  });

  it('names a Service that selects no pods, an unknown kind and a secret template carrying a value', () => {
    const manifests = fresh();
    objectAt(get(manifests, 'Service', 'campaigns').body, 'spec', 'selector')!['app.kubernetes.io/name'] =
      'campaign';
    objectAt(get(manifests, 'Secret', 'mailer-secrets').body, 'stringData')!.INTERNAL_SIGNING_SECRET =
      'x'.repeat(40);
    manifests.push({
      file: 'x.yaml',
      kind: 'CronJob',
      name: 'x',
      body: { apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'x' } },
    });
    const problems = manifestProblems(manifests);
    expect(problems).toContain('Service campaigns: selector does not select the campaigns pods');
    expect(problems).toContain(
      'Secret mailer-secrets: INTERNAL_SIGNING_SECRET has a value; the template must carry none',
    );
    expect(problems).toContain('x.yaml CronJob x: kind CronJob is not one this project deploys');
  });

  it('requires only variables the services really read (the contract follows the config schemas)', () => {
    const schemas: Record<Service, { shape: object }> = {
      gateway: gatewayEnvSchema,
      contacts: contactsEnvSchema,
      campaigns: campaignsEnvSchema,
      events: eventsEnvSchema,
      automation: automationEnvSchema,
      web: webEnvSchema,
      webhooks: webhooksEnvSchema,
    };
    for (const service of SERVICES) {
      const read = new Set(Object.keys(schemas[service].shape));
      for (const requirement of REQUIRED_ENV[service]) {
        // NAME_FILE is read by loadConfig for any NAME the schema reads.
        const names = (typeof requirement === 'string' ? [requirement] : requirement).filter((name) => !name.endsWith('_FILE'));
        expect({ service, names: names.filter((name) => !read.has(name)) }).toEqual({ service, names: [] });
      }
    }
    // The shared pieces every schema is built from still carry the names the manifests use.
    expect(Object.keys(commonEnvSchema.shape)).toContain('INTERNAL_SIGNING_SECRET');
    expect(Object.keys({ ...postgresEnv, ...brokerEnv, ...redisEnv })).toEqual(
      expect.arrayContaining(['POSTGRES_URL', 'DATABASE_URL', 'AMQP_URL', 'REDIS_URL']),
    );
  });
});
