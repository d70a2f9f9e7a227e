export * from './free-port';
export type { PrivateServer } from './managed-server';
export * from './private-postgres';
export * from './private-redis';
export * from './private-rabbitmq';
