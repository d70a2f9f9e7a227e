import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * What every deployment of the services must provide, whatever the platform (compose,
 * Kubernetes): the port each listens on and the variables it cannot run well without. A
 * requirement that is a list is satisfied by any one of its names (its own database, or the server).
 */
export const SERVICES = ['gateway', 'contacts', 'campaigns', 'events', 'automation', 'web', 'webhooks'] as const;
export type Service = (typeof SERVICES)[number];

export type EnvRequirement = string | readonly string[];

const DATABASE: EnvRequirement = ['DATABASE_URL', 'POSTGRES_URL'];
/** The signing key, given directly or as a file (Docker and Kubernetes secrets). */
const SIGNING_SECRET: EnvRequirement = ['INTERNAL_SIGNING_SECRET', 'INTERNAL_SIGNING_SECRET_FILE'];

/** Where each service listens, the gateway's public listeners first: the one list the Dockerfiles are made from too. */
export const SERVICE_PORTS = JSON.parse(
  readFileSync(path.resolve(__dirname, '../../scripts/service-ports.json'), 'utf8'),
) as Record<Service, readonly number[]>;

export const REQUIRED_ENV: Record<Service, readonly EnvRequirement[]> = {
  gateway: [
    SIGNING_SECRET,
    'GATEWAY_PORT',
    'EVENTS_PORT',
    DATABASE,
    'REDIS_URL',
    'CONTACTS_SERVICE_URL',
    'CAMPAIGNS_SERVICE_URL',
    'EVENTS_SERVICE_URL',
    'AUTOMATION_SERVICE_URL',
    'WEB_SERVICE_URL',
    'WEBHOOKS_SERVICE_URL',
    'GATEWAY_INTERNAL_PORT',
    'GATEWAY_INTERNAL_HOST',
  ],
  contacts: [SIGNING_SECRET, 'PORT', 'HOST', DATABASE, 'REDIS_URL', 'AMQP_URL'],
  campaigns: [SIGNING_SECRET, 'PORT', 'HOST', DATABASE, 'AMQP_URL'],
  // Events owns no database: its Idempotency-Key answers live in Redis, the events in the broker.
  events: [SIGNING_SECRET, 'PORT', 'HOST', 'REDIS_URL', 'AMQP_URL'],
  automation: [
    SIGNING_SECRET,
    'PORT',
    'HOST',
    DATABASE,
    'AMQP_URL',
    'SMTP_URL',
    'MAIL_FROM',
    'PUBLIC_BASE_URL',
    'CONTACTS_SERVICE_URL',
  ],
  web: [SIGNING_SECRET, 'PORT', 'HOST', DATABASE, 'GATEWAY_INTERNAL_URL', 'CONTACTS_SERVICE_URL', 'TRUST_PROXY'],
  webhooks: [SIGNING_SECRET, 'PORT', 'HOST', DATABASE, 'AMQP_URL'],
};

/** Where the gateway finds each upstream: variable -> the service it must name. */
export const UPSTREAM_URLS: Record<string, Service> = {
  CONTACTS_SERVICE_URL: 'contacts',
  CAMPAIGNS_SERVICE_URL: 'campaigns',
  EVENTS_SERVICE_URL: 'events',
  AUTOMATION_SERVICE_URL: 'automation',
  WEB_SERVICE_URL: 'web',
  WEBHOOKS_SERVICE_URL: 'webhooks',
};

/** Services that must have a HorizontalPodAutoscaler. */
export const AUTOSCALED: readonly Service[] = ['gateway', 'events', 'automation'];

export const requirementName = (requirement: EnvRequirement) =>
  typeof requirement === 'string' ? requirement : requirement.join(' or ');

/** The requirements `names` does not satisfy, as readable names. */
export function missingEnv(service: Service, names: ReadonlySet<string>): string[] {
  return REQUIRED_ENV[service]
    .filter((requirement) =>
      typeof requirement === 'string' ? !names.has(requirement) : !requirement.some((n) => names.has(n)),
    )
    .map(requirementName);
}

/**
 * Variables that give a service a job that is another's: the mail server is automation's alone,
 * and each database URL belongs to its owner (a service's own is DATABASE_URL).
 */
const OWNED_ELSEWHERE: Record<string, Service> = {
  SMTP_URL: 'automation',
  MAIL_FROM: 'automation',
};

/** The variables of `names` that belong to another service. */
export function foreignEnv(service: Service, names: ReadonlySet<string>): string[] {
  return [...names].filter((name) => (OWNED_ELSEWHERE[name] !== undefined && OWNED_ELSEWHERE[name] !== service) || /^[A-Z]+_DATABASE_URL$/.test(name));
}
