export * from './test-environment';
export * from './smtp-sink';
export * from './dns-test-server';
export * from './wait-for';
export * from './service-test-env';
export * from './tcp-proxy';
