export * from './json-schema-arbitrary';
export * from './hostile-bodies';
export * from './signed-raw-request';
