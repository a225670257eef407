export * from './billing';
export * from './crm';
export * from './integration';
export * from './inventory';
