import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { composeProblems, dockerfileProblems, imageContentProblems, loadCompose } from './compose-rules';
import { objectAt } from './json-shapes';

const ROOT = path.resolve(__dirname, '../..');
const gatewayDockerfile = () => readFileSync(path.join(ROOT, 'services/gateway/Dockerfile'), 'utf8');

describe('docker-compose.yml (checked without Docker)', () => {
  it('gives each service a Dockerfile, a healthcheck, healthy servers to wait for and the environment it needs', () => {
    expect(composeProblems(loadCompose(path.join(ROOT, 'docker-compose.yml')), ROOT)).toEqual([]);
  });

  it('names a service left out, a missing healthcheck, a dependency not waited for and a missing variable', () => {
    const compose = loadCompose(path.join(ROOT, 'docker-compose.yml'));
    const services = objectAt(compose, 'services')!;
    delete services.campaigns;
    delete objectAt(services, 'webhooks')!.healthcheck;
    objectAt(services, 'contacts')!.depends_on = {
      postgres: { condition: 'service_started' },
      redis: { condition: 'service_healthy' },
    };
    const automationEnv = objectAt(services, 'automation', 'environment')!;
    delete automationEnv.SMTP_URL;
    automationEnv.PORT = '3041';
    objectAt(services, 'gateway', 'environment')!.SMTP_URL = 'smtp://mailpit:1025';
    objectAt(services, 'events', 'environment')!.CONTACTS_DATABASE_URL = 'postgres://postgres@postgres/mailer_contacts';
    const problems = composeProblems(compose, ROOT);
    expect(problems).toEqual(
      expect.arrayContaining([
        'compose: no service campaigns',
        'compose webhooks: no healthcheck',
        'compose contacts: does not wait for postgres to be healthy',
        'compose contacts: does not wait for rabbitmq to be healthy',
        'compose automation: does not set SMTP_URL',
        'compose automation: PORT is 3041, expected 3040',
        "compose gateway: sets SMTP_URL, which is another service's",
        "compose events: sets CONTACTS_DATABASE_URL, which is another service's",
      ]),
    );
  });

  it("refuses an image that carries another service's code", () => {
    const withContacts = gatewayDockerfile().replace(
      'COPY services/gateway services/gateway',
      'COPY services/contacts services/contacts\nCOPY services/gateway services/gateway',
    );
    expect(imageContentProblems('gateway', gatewayDockerfile())).toEqual([]);
    expect(imageContentProblems('gateway', withContacts)).toEqual([
      "gateway Dockerfile: copies services/contacts, another service's code, into the image",
    ]);
    const builtElsewhere = gatewayDockerfile().replace(
      'COPY --from=build /app/services/gateway/dist services/gateway/dist',
      'COPY --from=build /app/services/automation/dist services/automation/dist',
    );
    expect(imageContentProblems('gateway', builtElsewhere)).toEqual([
      "gateway Dockerfile: copies /app/services/automation/dist, another service's code, into the image",
    ]);
  });

  it('names a build whose Dockerfile is not there, in a copy of the repository layout', () => {
    const copy = mkdtempSync(path.join(tmpdir(), 'compose-'));
    try {
      for (const service of ['gateway', 'contacts', 'campaigns', 'events', 'web', 'webhooks']) {
        cpSync(
          path.join(ROOT, 'services', service, 'Dockerfile'),
          path.join(copy, 'services', service, 'Dockerfile'),
        );
      }
      writeFileSync(
        path.join(copy, 'docker-compose.yml'),
        readFileSync(path.join(ROOT, 'docker-compose.yml')),
      );
      const problems = composeProblems(loadCompose(path.join(copy, 'docker-compose.yml')), copy);
      expect(problems).toEqual(['compose automation: services/automation/Dockerfile does not exist']);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it('passes each service Dockerfile, and refuses one that is single-stage, runs as root or installs dev dependencies', () => {
    expect(dockerfileProblems('gateway', gatewayDockerfile(), [3000, 3001])).toEqual([]);
    const asRoot = gatewayDockerfile().replace(/^USER node$/m, 'USER root');
    expect(dockerfileProblems('gateway', asRoot, [3000])).toEqual(['gateway: the final stage runs as root']);
    const noUser = gatewayDockerfile().replace(/^USER node$/m, '');
    expect(dockerfileProblems('gateway', noUser, [3000])).toEqual([
      'gateway: the final stage runs as root (no USER)',
    ]);
    const withDev = gatewayDockerfile().replace('--omit=dev ', '');
    expect(dockerfileProblems('gateway', withDev, [3000])).toEqual([
      'gateway: the final stage installs without --omit=dev',
    ]);
    const singleStage = 'FROM node:20\nRUN npm ci --omit=dev\nUSER node\nEXPOSE 3000\nHEALTHCHECK CMD true\n';
    expect(dockerfileProblems('x', singleStage, [3000])).toEqual(['x: not multi-stage (1 FROM)']);
    expect(dockerfileProblems('x', singleStage, [3000, 3001])).toContain('x: does not EXPOSE 3001');
  });
});
