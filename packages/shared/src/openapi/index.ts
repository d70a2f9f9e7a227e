export * from './fragment';
export * from './schemas';
