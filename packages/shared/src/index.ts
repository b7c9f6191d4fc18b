export * from './backoffice.ts';
export * from './decimal.ts';
export * from './envelope.ts';
export * from './html-policy.ts';
export * from './i18n/index.ts';
export * from './languages.ts';
export * from './schema/fields.ts';
export * from './socket-events.ts';
