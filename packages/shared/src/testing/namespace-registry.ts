import { removeNamespacedTopology } from '../messaging/remove-topology';

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

/** Deletes the queues and exchanges of every namespace this file used (best effort). */
export async function removeRememberedNamespaces(amqpUrl: string): Promise<void> {
  const used = [...namespaces];
  namespaces.clear();
  for (const namespace of used) {
    await removeNamespacedTopology(amqpUrl, namespace).catch(() => undefined);
  }
}
