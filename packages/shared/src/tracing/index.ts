export * from './tracing';
export * from './trace-requests';
