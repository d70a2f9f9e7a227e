import { removeNamespacedTopology } from '@mailer/shared';

/**
 * Broker namespaces a test file created. Jest gives every test file its own module registry, so
 * this list is per file; the shared jest setup removes them after the file's last test. Without
 * it every file's quorum queues would live until the run's vhost is deleted, and a full run holds
 * hundreds of them open (RabbitMQ's default 1024 file descriptors run out).
 */
const namespaces = new Set<string>();

export function rememberNamespace(namespace: string): string {
  if (namespace) namespaces.add(namespace);
  return namespace;
}

/** Deletes one namespace's queues and exchanges now (a stack that stopped), so the file holds fewer at once. */
export async function removeNamespace(amqpUrl: string, namespace: string): Promise<void> {
  namespaces.delete(namespace);
  await removeNamespacedTopology(amqpUrl, namespace).catch(() => undefined);
}

/** Deletes the queues and exchanges of every namespace this file used and still holds (best effort). */
export async function removeRememberedNamespaces(amqpUrl: string): Promise<void> {
  await Promise.all([...namespaces].map((namespace) => removeNamespace(amqpUrl, namespace)));
}
