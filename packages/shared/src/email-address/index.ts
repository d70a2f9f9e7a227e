export * from './address-rule';
export * from './disposable-domains';
export * from './domain-verdict-cache';
export * from './email-address.errors';
export * from './email-domain-env';
export * from './email-domain-verdict';
export * from './mail-domain-dns';
