/**
 * What every deployment of the services must provide, whatever the platform (compose,
 * Kubernetes): the port each listens on and the variables it cannot run well without. A
 * requirement that is a list is satisfied by any one of its names (its own database, or the server).
 */
export const SERVICES = ['gateway', 'contacts', 'campaigns', 'automation', 'web', 'webhooks'] as const;
export type Service = (typeof SERVICES)[number];

export type EnvRequirement = string | readonly string[];

const DATABASE: EnvRequirement = ['DATABASE_URL', 'POSTGRES_URL'];
/** The signing key, given directly or as a file (Docker and Kubernetes secrets). */
const SIGNING_SECRET: EnvRequirement = ['INTERNAL_SIGNING_SECRET', 'INTERNAL_SIGNING_SECRET_FILE'];

export const SERVICE_PORTS: Record<Service, readonly number[]> = {
  gateway: [3000, 3001, 3002],
  contacts: [3010],
  campaigns: [3020],
  automation: [3040],
  web: [3050],
  webhooks: [3060],
};

export const REQUIRED_ENV: Record<Service, readonly EnvRequirement[]> = {
  gateway: [
    SIGNING_SECRET,
    'GATEWAY_PORT',
    'EVENTS_PORT',
    DATABASE,
    'REDIS_URL',
    // POST /v1/events is published from the gateway's own process.
    'AMQP_URL',
    'CONTACTS_SERVICE_URL',
    'CAMPAIGNS_SERVICE_URL',
    'AUTOMATION_SERVICE_URL',
    // The events' enrolments are written from the gateway's process, Message-IDs with automation's sender domain,
    // and their first emails sent from it with automation's sending settings.
    ['AUTOMATION_DATABASE_URL', 'POSTGRES_URL'],
    'MAIL_FROM',
    'SMTP_URL',
    'PUBLIC_BASE_URL',
    'WEB_SERVICE_URL',
    'WEBHOOKS_SERVICE_URL',
    'GATEWAY_INTERNAL_PORT',
    'GATEWAY_INTERNAL_HOST',
  ],
  contacts: [SIGNING_SECRET, 'PORT', 'HOST', DATABASE, 'REDIS_URL', 'AMQP_URL'],
  campaigns: [SIGNING_SECRET, 'PORT', 'HOST', DATABASE, 'AMQP_URL'],
  automation: [
    SIGNING_SECRET,
    'PORT',
    'HOST',
    DATABASE,
    'AMQP_URL',
    // The record of the workflows' triggers, which the gateway reads in its Redis.
    'REDIS_URL',
    'SMTP_URL',
    'MAIL_FROM',
    'PUBLIC_BASE_URL',
  ],
  web: [SIGNING_SECRET, 'PORT', 'HOST', DATABASE, 'GATEWAY_INTERNAL_URL', 'CONTACTS_SERVICE_URL', 'TRUST_PROXY'],
  webhooks: [SIGNING_SECRET, 'PORT', 'HOST', DATABASE, 'AMQP_URL'],
};

/** Where the gateway finds each upstream: variable -> the service it must name. */
export const UPSTREAM_URLS: Record<string, Service> = {
  CONTACTS_SERVICE_URL: 'contacts',
  CAMPAIGNS_SERVICE_URL: 'campaigns',
  AUTOMATION_SERVICE_URL: 'automation',
  WEB_SERVICE_URL: 'web',
  WEBHOOKS_SERVICE_URL: 'webhooks',
};

/** Services that must have a HorizontalPodAutoscaler. */
export const AUTOSCALED: readonly Service[] = ['gateway', 'automation'];

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
