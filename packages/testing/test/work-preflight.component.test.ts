import { checkServersTakeWork, startTcpProxy, testServers, type TcpProxy } from '@mailer/testing';

/** The same URL, reached through a local proxy (a broker or database that answers but hangs). */
function through(proxy: TcpProxy, url: string): string {
  const proxied = new URL(url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(proxy.port);
  return proxied.toString();
}

describe('the test run preflight', () => {
  const { postgresUrl, amqpUrl } = testServers();
  let brokerProxy: TcpProxy;
  let postgresProxy: TcpProxy;
  beforeAll(async () => {
    const broker = new URL(amqpUrl);
    const postgres = new URL(postgresUrl);
    brokerProxy = await startTcpProxy({ host: broker.hostname, port: Number(broker.port || 5672) });
    postgresProxy = await startTcpProxy({ host: postgres.hostname, port: Number(postgres.port || 5432) });
  });
  afterAll(async () => {
    await brokerProxy.close();
    await postgresProxy.close();
  });

  it('passes when both servers take work', async () => {
    await expect(checkServersTakeWork({ postgresUrl, amqpUrl }, 5000)).resolves.toBeUndefined();
  });

  it('fails in seconds, naming RabbitMQ, when the broker accepts connections but answers nothing', async () => {
    brokerProxy.fault({ kind: 'stall' });
    const started = Date.now();
    await expect(checkServersTakeWork({ postgresUrl, amqpUrl: through(brokerProxy, amqpUrl) }, 500)).rejects.toThrow(
      /^RabbitMQ answers but takes no work: .*Check its log/,
    );
    expect(Date.now() - started).toBeLessThan(5000);
    brokerProxy.fault({ kind: 'none' });
  });

  it('fails naming PostgreSQL when the database hangs', async () => {
    postgresProxy.fault({ kind: 'stall' });
    await expect(checkServersTakeWork({ postgresUrl: through(postgresProxy, postgresUrl), amqpUrl }, 500)).rejects.toThrow(
      /^PostgreSQL answers but takes no work/,
    );
    postgresProxy.fault({ kind: 'none' });
  });
});
