import { brokerProbe } from './broker-probe';
import { startContactsForTest, type ContactsTestService } from './contacts-test-service';

export type BrokerProbe = Awaited<ReturnType<typeof brokerProbe>>;

/**
 * A contacts service and a probe of every enriched event it publishes, for a file of tests: started
 * before its tests and stopped after them; `ready` hands both to the file's own variables.
 */
export function contactsWithEnrichedProbe(ready: (service: ContactsTestService, probe: BrokerProbe) => void): void {
  let service: ContactsTestService | undefined;
  let probe: BrokerProbe | undefined;
  beforeAll(async () => {
    service = await startContactsForTest();
    probe = await brokerProbe(service.config.BROKER_NAMESPACE, ['product_event.enriched.v1.*']);
    ready(service, probe);
  });
  afterAll(async () => {
    await probe?.close();
    await service?.stop();
  });
}
