export * from './metric-catalogue';
export * from './registry';
export * from './http-metrics';
