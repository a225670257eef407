export * from './billing';
export * from './crm';
export * from './inventory';
