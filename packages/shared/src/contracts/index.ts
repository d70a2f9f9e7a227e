export * from './message-contract';
export * from './contact-facts';
export * from './product-events';
export * from './email-facts';
export * from './campaign-facts';
export * from './outcome-facts';
